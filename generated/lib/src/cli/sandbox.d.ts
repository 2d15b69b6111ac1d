export declare const SANDBOX_USAGE: string;
export declare function sandboxCommand(argv: string[], out: (line: string) => void, err?: (line: string) => void): Promise<number>;
/** The variables the guides and the docs' samples read, set for this sandbox. */
export declare function exportLine(sandbox: {
    url: string;
    authKey: string;
    accessToken: string;
}): string;
