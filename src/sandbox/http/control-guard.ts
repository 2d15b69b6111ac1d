// The sandbox answers only this machine and the names the partner allows (S16, S48): any web page can reach 127.0.0.1,
// and a DNS-rebinding page does so under its own name, so every route checks Host, and the control API Origin too.
import { apiOf } from './error-bodies.js';

export type Refusal = { status: 403; message: string };

/** The names of this machine that a request to either door may use. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * A Host names one of `names` with `port` (any port when the door has none), or one of `allowedHosts` on any port (a
 * proxy may put another port in front); an Origin is a page of any of these names on any port.
 */
export interface HostAllowlist {
  names: readonly string[];
  port?: number;
  /** The names the partner added (`--allowed-hosts`, `allowedHosts`), in lower case; none when absent. */
  allowedHosts?: readonly string[];
  /** What the partner does to allow `name`, said in the 403 (`NAME` when the Host is unreadable); the sandbox command's option when absent. */
  howToAllow?: (name: string) => string;
}

const startWithName = (name: string) =>
  `start the sandbox with --allowed-hosts ${name} (or SANDBOX_ALLOWED_HOSTS, or allowedHosts of startSandbox)`;

/** The host name of a `Host` header (`[::1]` of `[::1]:4020`) and its port (80 when absent), in lower case. */
function hostAndPort(host: string): { name: string; port: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
  return match ? { name: match[1], port: Number(match[2] ?? 80) } : undefined;
}

/** Whether an Origin is a page of an allowed name: not `null` (a sandboxed frame, a file), nor unparseable. */
function allowedOrigin(allowed: HostAllowlist, origin: string): boolean {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  const names = [...allowed.names, ...(allowed.allowedHosts ?? [])];
  return (url?.protocol === 'http:' || url?.protocol === 'https:') && names.includes(url.hostname);
}

/** The host name of an Origin, or `NAME` when it has none (`null`). */
const originName = (origin: string) => (URL.canParse(origin) ? new URL(origin).hostname || 'NAME' : 'NAME');

/** Whether a Host is an allowed name, and with the door's port when it is one of this machine's. */
function allowedHost(allowed: HostAllowlist, named: { name: string; port: number } | undefined): boolean {
  if (!named) return false;
  if (allowed.allowedHosts?.includes(named.name)) return true;
  return allowed.names.includes(named.name) && (allowed.port === undefined || named.port === allowed.port);
}

/** `localhost:4020, 127.0.0.1:4020, [::1]:4020 or sandbox.test`. */
function listed(allowed: HostAllowlist): string {
  const port = allowed.port === undefined ? '' : `:${allowed.port}`;
  const added = allowed.allowedHosts ?? [];
  const names = allowed.names.filter((name) => !added.includes(name));
  const addresses = [...names.map((name) => `${name}${port}`), ...added];
  return `${addresses.slice(0, -1).join(', ')} or ${addresses.at(-1)}`;
}

/**
 * Why a door refuses a request for its Host or Origin: under a rebound name a
 * page could otherwise rotate the partner's key through the partner API.
 */
export function doorRefusal(
  allowed: HostAllowlist,
  target: string,
  header: (name: string) => string | undefined,
): Refusal | undefined {
  const host = header('host');
  const named = hostAndPort(host ?? '');
  if (!allowedHost(allowed, named)) {
    const how = (allowed.howToAllow ?? startWithName)(named?.name ?? 'NAME');
    return {
      status: 403,
      message: `the sandbox answers only requests to ${listed(allowed)}, not Host ${JSON.stringify(host ?? '')}; call it by one of those names, or ${how} to allow that name`,
    };
  }
  const origin = header('origin');
  if (apiOf(target) === 'sandbox' && origin !== undefined && !allowedOrigin(allowed, origin)) {
    return {
      status: 403,
      message: `the control API answers no web page outside the allowed names, not Origin ${JSON.stringify(origin)}; ${(allowed.howToAllow ?? startWithName)(originName(origin))} to allow that page`,
    };
  }
  return undefined;
}
