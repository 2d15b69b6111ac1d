export declare const SANDBOX_USAGE: string;
export declare function sandboxCommand(argv: string[], out: (line: string) => void): Promise<number>;
