// A refusal by the sandbox's state (partner or v2): the HTTP layer turns it
// into the documented status and the API's error body.

export class SandboxError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
