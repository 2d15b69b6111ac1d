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

/** The body is signed correctly but is not a webhook of the contract. */
export class WebhookPayloadError extends Error {
  override name = 'WebhookPayloadError';
  constructor(
    message: string,
    readonly issues: readonly PayloadIssue[],
  ) {
    super(message);
  }
}
