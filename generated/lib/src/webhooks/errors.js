/** The `X-SIGNATURE` does not prove that the service sent this body. */
export class WebhookSignatureError extends Error {
    problem;
    name = 'WebhookSignatureError';
    constructor(message, problem) {
        super(message);
        this.problem = problem;
    }
}
/** The body is signed correctly but is not a webhook of the contract. */
export class WebhookPayloadError extends Error {
    issues;
    name = 'WebhookPayloadError';
    constructor(message, issues) {
        super(message);
        this.issues = issues;
    }
}
