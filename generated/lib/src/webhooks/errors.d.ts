/** Why a signature was refused. */
export type SignatureProblem = 'missing' | 'malformed' | 'mismatch' | 'no-key';
/** The `X-SIGNATURE` does not prove that the service sent this body. */
export declare class WebhookSignatureError extends Error {
    readonly problem: SignatureProblem;
    name: string;
    constructor(message: string, problem: SignatureProblem);
}
/** One way a payload departs from the partner document. */
export interface PayloadIssue {
    /** JSON pointer into the payload, `''` for the whole body. */
    path: string;
    message: string;
}
/** The body is signed correctly but is not a webhook of the contract. */
export declare class WebhookPayloadError extends Error {
    readonly issues: readonly PayloadIssue[];
    name: string;
    constructor(message: string, issues: readonly PayloadIssue[]);
}
