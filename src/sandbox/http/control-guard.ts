// The sandbox answers only the developer on this machine (S16). A web page
// the developer visits can still send requests to 127.0.0.1; these checks
// leave it none that reach an operation. At the node:http door, one
// allowlist decides which Host and Origin are this machine's: a
// DNS-rebinding page talks to the sandbox under its own name, so its Host
// is not an allowed name with the sandbox's port (every route, the end
// user's page too); on the control API (/_sandbox), a cross-origin fetch or
// form carries its page's Origin. Behind either door, a request without
// CORS consent cannot carry `Content-Type: application/json` (that makes it
// non-simple, and the sandbox answers no preflight), so control POSTs and
// PUTs require it.
import { apiOf } from './error-bodies.js';
import { readContentType } from './request-body.js';

export type Refusal = { status: 403 | 415; message: string };

/** The names of this machine that a request to the node:http door may use. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Which Host and Origin the node:http door answers: a Host names one of
 * `names` with `port`; an Origin is a page of one of `names` on any port
 * (a local app's development server calling the control API).
 */
export interface HostAllowlist {
  names: readonly string[];
  port: number;
}

/** The host name of a `Host` header (`[::1]` of `[::1]:4020`) and its port (80 when absent), in lower case. */
function hostAndPort(host: string): { name: string; port: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
  return match ? { name: match[1], port: Number(match[2] ?? 80) } : undefined;
}

/** Whether an Origin is a page of an allowed name: not `null` (a sandboxed frame, a file), nor unparseable. */
function allowedOrigin(allowed: HostAllowlist, origin: string): boolean {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  return (url?.protocol === 'http:' || url?.protocol === 'https:') && allowed.names.includes(url.hostname);
}

/**
 * Why the node:http door refuses a request for its Host or Origin, or
 * undefined when they are this machine's. Every route is guarded by Host:
 * under a rebound name a page could otherwise rotate the partner's key or
 * repoint its webhookUrl through the partner API. A fetch handler is handed
 * requests by the partner's own code, so it applies none of this.
 */
export function doorRefusal(
  allowed: HostAllowlist,
  target: string,
  header: (name: string) => string | undefined,
): Refusal | undefined {
  const host = header('host');
  const named = hostAndPort(host ?? '');
  if (!named || !allowed.names.includes(named.name) || named.port !== allowed.port) {
    const addresses = allowed.names.map((name) => `${name}:${allowed.port}`);
    const listed = `${addresses.slice(0, -1).join(', ')} or ${addresses.at(-1)}`;
    return {
      status: 403,
      message: `the sandbox answers only requests to ${listed}, not Host ${JSON.stringify(host ?? '')}; call it by one of those names`,
    };
  }
  const origin = header('origin');
  if (apiOf(target) === 'sandbox' && origin !== undefined && !allowedOrigin(allowed, origin)) {
    return {
      status: 403,
      message: `the control API answers no web page outside this machine, not Origin ${JSON.stringify(origin)}`,
    };
  }
  return undefined;
}

/** Why a control request is refused for its type (after the door's checks), or undefined when it may proceed. */
export function controlRefusal(method: string, header: (name: string) => string | undefined): Refusal | undefined {
  if (method !== 'GET' && method !== 'HEAD') {
    const type = header('content-type');
    // Its parameters well-formed too (a body's reader takes the type alone).
    const { type: media, parameters } = readContentType(type);
    if (media !== 'application/json' || !parameters) {
      return {
        status: 415,
        message: `control requests other than GET must send Content-Type: application/json (a body is optional where the operation takes none), not ${type ?? 'none'}`,
      };
    }
  }
  return undefined;
}
