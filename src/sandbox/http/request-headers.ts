// One request header by name, read from the raw header list. Node builds
// `req.headers` (every header, lower-cased) on first access; the sandbox's
// hot path needs one or two headers, so it reads them without that object.
import type { IncomingMessage } from 'node:http';

/** The header's value as `req.headers[name]` would give it; `name` is lower-case. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length !== name.length || raw[i].toLowerCase() !== name) continue;
    // Repeated: Node's rules decide (some keep the first, others join).
    if (found !== undefined) return req.headers[name] as string | undefined;
    found = raw[i + 1];
  }
  return found;
}

/** Whether the request says it carries a body. */
export function announcesBody(req: IncomingMessage): boolean {
  return headerOf(req, 'transfer-encoding') !== undefined || Number(headerOf(req, 'content-length')) > 0;
}
