// The sandbox's core as the fetch door builds it, with each operation's
// handler wrapped (the seam the server's faults use), and requests without a
// body sent to it carrying every credential, as a door hands them over.
import { documents, homepage, requestValidators } from '../../generated/validators/sandbox-contract.js';
import { createSandboxCore, type CoreOptions, type SandboxCore } from '../../src/sandbox/core.js';
import type { DoorAnswer } from '../../src/sandbox/http/door.js';

export function wrappedCore(wrap: NonNullable<CoreOptions['wrap']>): SandboxCore {
  return createSandboxCore({
    url: 'http://sandbox.test',
    documents,
    precompiled: requestValidators,
    homepage,
    onDeliveryFailure: () => undefined,
    wrap,
  });
}

/** The core's answer to `method target` with no body, the partner's key, the v2 token and a JSON Content-Type. */
export function askCore(core: SandboxCore, method: string, target: string): Promise<DoorAnswer | undefined> {
  const headers: Record<string, string> = {
    'x-auth-key': core.authKey(),
    authorization: `Bearer ${core.accessToken}`,
    'content-type': 'application/json',
  };
  return core.answer({
    method,
    target,
    origin: 'http://sandbox.test',
    header: (name) => headers[name],
    hasBody: false,
    body: async () => new Uint8Array(),
  });
}
