// The sandbox answers only the developer on this machine (S16). A web page
// the developer visits can still send requests to 127.0.0.1; these checks
// leave it none that reach an operation: a DNS-rebinding page talks to the
// sandbox under its own name, so its Host is not a loopback name with the
// sandbox's port (every route); on the control API (/_sandbox), a
// cross-origin fetch or form carries its page's Origin, and a request
// without CORS consent cannot carry `Content-Type: application/json` (that
// makes it non-simple, and the sandbox answers no preflight), so control
// POSTs and PUTs require it.
import { readContentType } from './request-body.js';

export type Refusal = { status: 403 | 415; message: string };

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether an Origin is a page of this machine: not `null` (a sandboxed frame, a file), nor unparseable. */
function loopbackOrigin(origin: string): boolean {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  return (url?.protocol === 'http:' || url?.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname);
}

/**
 * Why any request is refused for its Host, or undefined when it names this
 * machine. Every route is guarded: under a rebound name a page could
 * otherwise rotate the partner's key or repoint its webhookUrl through the
 * partner API. The node:http door's guard: no other site reaches a fetch handler.
 */
export function hostRefusal(host: string | undefined, port: number): Refusal | undefined {
  const match = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(host?.toLowerCase() ?? '');
  if (match && LOOPBACK_NAMES.has(match[1]) && Number(match[2] ?? 80) === port) return undefined;
  return {
    status: 403,
    message: `the sandbox answers only requests to localhost:${port}, 127.0.0.1:${port} or [::1]:${port}, not Host ${JSON.stringify(host ?? '')}; call it by one of those names`,
  };
}

/**
 * Why a control request is refused (after the Host check), or undefined when
 * it may proceed. The Origin is checked at the node:http door only
 * (`checkOrigin`): a fetch handler is handed requests by the partner's own code.
 */
export function controlRefusal(method: string, header: (name: string) => string | undefined, checkOrigin: boolean): Refusal | undefined {
  const origin = header('origin');
  if (checkOrigin && origin !== undefined && !loopbackOrigin(origin)) {
    return { status: 403, message: `the control API answers no web page outside this machine, not Origin ${JSON.stringify(origin)}` };
  }
  if (method !== 'GET' && method !== 'HEAD') {
    const type = header('content-type');
    // Its parameters well-formed too (a body's reader takes the type alone).
    const { type: media, parameters } = readContentType(type);
    if (media !== 'application/json' || !parameters) {
      return { status: 415, message: `control requests other than GET must send Content-Type: application/json (a body is optional where the operation takes none), not ${type ?? 'none'}` };
    }
  }
  return undefined;
}
