export interface Refusal {
    status: 403 | 415;
    message: string;
}
/** Media type of a Content-Type header, or undefined when absent or unparseable. */
export declare function mediaTypeOf(header: string | undefined): string | undefined;
/** Why a control request is refused, or undefined when it may proceed. */
export declare function controlRefusal(method: string, headers: Record<string, string | string[] | undefined>, port: number): Refusal | undefined;
