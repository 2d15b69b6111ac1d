// The sandbox's core as the fetch door builds it, optionally with each
// operation's handler wrapped (the seam the server's faults use), and
// requests sent to it carrying every credential, as a door hands them over.
import { documents, homepage, requestValidators } from '../../generated/validators/sandbox-contract.js';
import { createSandboxCore, type CoreOptions, type SandboxCore } from '../../src/sandbox/core.js';

/** The core with the fetch door's documents and validators, failed deliveries silenced, and `options` on top. */
export function sandboxCore(options: Partial<CoreOptions> = {}): SandboxCore {
  return createSandboxCore({
    url: 'http://sandbox.test',
    documents,
    precompiled: requestValidators,
    homepage,
    onDeliveryFailure: () => undefined,
    ...options,
  });
}

/** The core's answer to `method target` with the partner's key, the v2 token, a JSON Content-Type and `body` if any. */
export function askCore(core: SandboxCore, method: string, target: string, body?: string) {
  const bytes = new TextEncoder().encode(body ?? '');
  const headers: Record<string, string> = {
    'x-auth-key': core.authKey(),
    authorization: `Bearer ${core.accessToken}`,
    'content-type': 'application/json',
    ...(body === undefined ? {} : { 'content-length': String(bytes.length) }),
  };
  return core.answer({
    method,
    target,
    origin: 'http://sandbox.test',
    header: (name) => headers[name],
    hasBody: body !== undefined,
    body: async () => bytes,
  });
}
