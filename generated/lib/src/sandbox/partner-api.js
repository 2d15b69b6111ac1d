/** A refusal the HTTP layer turns into the documented status and Error body. */
export class SandboxError extends Error {
    status;
    constructor(status, message) {
        super(message);
        this.status = status;
    }
}
