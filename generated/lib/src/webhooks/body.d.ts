/**
 * A webhook body exactly as it arrived: the text, or its bytes as any
 * runtime hands them over (a Node `Buffer` is a `Uint8Array`), never
 * re-serialized JSON.
 */
export type RawBody = string | Uint8Array | ArrayBuffer | DataView;
/** Why a body cannot be read, or null when it can. */
export declare function bodyProblem(rawBody: unknown): string | null;
/** The body as a string or bytes, without copying; null when it is neither. */
export declare function bodyView(rawBody: unknown): string | Uint8Array | null;
/** The body's text; throws when its bytes are not UTF-8. */
export declare function bodyText(body: string | Uint8Array): string;
