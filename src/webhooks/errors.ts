/** Why a signature was refused. */
export type SignatureProblem = 'missing' | 'malformed' | 'mismatch' | 'no-key';

/** The `X-SIGNATURE` does not prove that the service sent this body. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
  constructor(
    message: string,
    readonly problem: SignatureProblem,
  ) {
    super(message);
  }
}

/** One way a payload departs from the partner document. */
export interface PayloadIssue {
  /** JSON pointer into the payload, `''` for the whole body. */
  path: string;
  message: string;
}

/**
 * The body is not a webhook of the contract, or cannot be read. When its signature was verified, `verifiedBody` holds
 * its text, so that a receiver can keep it and answer 200 (the service retries anything else every 15 minutes, so
 * refusing it makes the same body fail forever).
 */
export class WebhookPayloadError extends Error {
  override name = 'WebhookPayloadError';
  constructor(
    message: string,
    readonly issues: readonly PayloadIssue[],
    /** The body's text when its signature was verified (bytes that are not UTF-8 read as U+FFFD); undefined when it could not be read, and so was not verified. */
    readonly verifiedBody?: string,
  ) {
    super(message);
  }
}
