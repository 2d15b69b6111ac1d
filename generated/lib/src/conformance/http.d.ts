export interface Exchange {
    method: string;
    /** Path and query relative to the base URL. */
    target: string;
    headers: Record<string, string>;
    body: string | undefined;
    status: number;
    /** The answer parsed as JSON, or its text when it is not JSON, or undefined when empty. */
    received: unknown;
    text: string;
}
/** The target could not be reached (exit 2: nothing was checked). */
export declare class UnreachableError extends Error {
    name: string;
}
/** --max-requests is spent. */
export declare class BudgetError extends Error {
    name: string;
}
export interface TargetOptions {
    baseUrl: string;
    /** Requests per second; 0 for no limit. */
    rate: number;
    maxRequests: number;
    timeoutMs?: number;
}
export declare class Target {
    readonly options: TargetOptions;
    readonly base: URL;
    sent: number;
    private nextAt;
    private readonly secrets;
    constructor(options: TargetOptions);
    /** Values never to print (credentials, keys seen in answers). */
    addSecret(value: string | undefined): void;
    get remaining(): number;
    /** The absolute URL of a path and query, which must stay under the base URL. */
    urlOf(target: string): string;
    send(method: string, target: string, headers: Record<string, string>, body?: string): Promise<Exchange>;
    /** Text with every secret replaced. */
    redact(text: string): string;
    /** The request as a curl command line, credentials redacted. */
    curl(e: Pick<Exchange, 'method' | 'target' | 'headers' | 'body'>): string;
}
