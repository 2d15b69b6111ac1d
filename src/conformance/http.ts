// Sends the runner's requests: only to the base URL, never following a redirect,
// at most --max-requests, no faster than --rate; what is printed is redacted. The
// preflight stops a run with a refused credential or a wrong base URL at once.
import type { ApiModel } from './operations.js';

export interface Exchange {
  method: string;
  /** Path and query relative to the base URL. */
  target: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  /** The answer parsed as JSON, or its text when it is not JSON, or undefined when empty. */
  received: unknown;
  text: string;
  /** Why the local sandbox refused the request (its X-Sandbox-Reason header), when it says. */
  reason?: string;
}

/** The target cannot be judged (exit 2): unreachable, a refused credential or a wrong base URL; the message says the fix. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/** --max-requests is spent. */
export class BudgetError extends Error {
  override name = 'BudgetError';
}

export class Target {
  readonly base: URL;
  sent = 0;
  private nextAt = 0;
  private readonly secrets = new Set<string>();

  constructor(
    readonly options: { baseUrl: string; rate: number; maxRequests: number; onSent?: (sent: number) => void },
  ) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, ''));
  }

  /** Values never to print (credentials, keys seen in answers). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  /** The absolute URL of a path and query, which must stay under the base URL. */
  urlOf(target: string): string {
    const url = `${this.base.href.replace(/\/$/, '')}${target}`;
    const parsed = new URL(url);
    if (!target.startsWith('/') || parsed.origin !== this.base.origin)
      throw new Error(`refusing to send a request outside ${this.base.origin}: ${url}`);
    return url;
  }

  async send(method: string, target: string, headers: Record<string, string>, body?: string): Promise<Exchange> {
    if (this.sent >= this.options.maxRequests)
      throw new BudgetError(`--max-requests ${this.options.maxRequests} reached`);
    const url = this.urlOf(target);
    if (this.options.rate > 0) {
      const wait = this.nextAt - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.nextAt = Math.max(Date.now(), this.nextAt) + 1000 / this.options.rate;
    }
    this.sent += 1;
    const allHeaders = body === undefined ? headers : { 'Content-Type': 'application/json', ...headers };
    let res: Response;
    try {
      const signal = AbortSignal.timeout(30_000);
      res = await fetch(url, { method, headers: allHeaders, body, redirect: 'manual', signal });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new TargetError(
        `cannot reach ${this.base.origin} (${cause?.code ?? cause?.message ?? (err as Error).message}) on ${method} ${target}: is it running there? Check --base-url; nothing was judged`,
      );
    }
    const text = await res.text();
    let received: unknown;
    try {
      received = text === '' ? undefined : JSON.parse(text);
    } catch {
      received = text; // Not JSON: the schema check says what is wrong.
    }
    this.options.onSent?.(this.sent);
    const reason = res.headers.get('x-sandbox-reason') ?? undefined;
    return { method, target, headers: allHeaders, body, status: res.status, received, text, reason };
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.replaceAll(s, '***');
    // Keys listed by GET /auth-keys or created by POST /auth-keys are credentials too.
    return out.replace(/("key"\s*:\s*")[^"]*(")/g, '$1***$2');
  }

  /** The request as a curl command line, credentials redacted. */
  curl(e: Pick<Exchange, 'method' | 'target' | 'headers' | 'body'>): string {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const parts = ['curl', '-X', e.method, q(this.urlOf(e.target))];
    for (const [name, value] of Object.entries(e.headers)) {
      // A credential shows its scheme only: `Bearer ***`.
      const shown = /^(x-auth-key|authorization)$/i.test(name) ? value.replace(/^(bearer )?.*$/is, '$1***') : value;
      parts.push('-H', q(`${name}: ${shown}`));
    }
    if (e.body !== undefined) parts.push('--data-raw', q(e.body));
    return this.redact(parts.join(' '));
  }
}

/** Calls the parameterless lists (GET /partners first): a 401 is a refused credential, 404 on each a wrong base URL. */
export async function preflight(target: Target, model: ApiModel, headers: Record<string, string>): Promise<void> {
  const probes = model.operations
    .filter((op) => op.method === 'GET' && !op.params.some((p) => p.in === 'path' || p.required))
    .sort((a, b) => Number(b.operationId === 'getPartner') - Number(a.operationId === 'getPartner'))
    .slice(0, 3); // three 404s say the base URL is wrong
  const missing: string[] = [];
  for (const op of probes) {
    const e = await target.send(op.method, op.path, headers);
    if (e.status === 401) throw new TargetError(refused(model, `${op.method} ${op.path}`, e.reason));
    if (e.status !== 404) return;
    missing.push(`${op.method} ${target.urlOf(op.path)}`);
  }
  if (missing.length) throw new TargetError(notFound(model, target.base, missing));
}

function refused(model: ApiModel, call: string, reason: string | undefined): string {
  const said = reason ? ` (the target says: ${reason})` : '';
  if (model.scheme === 'authKey')
    return `the credential was refused: ${call} answered 401 to the given --auth-key${said}. Check the key: POST /auth-keys makes the previous key invalid at once, so after a rotation use the new key (GET /auth-keys with it lists both). Nothing else was sent.`;
  return `the credential was refused: ${call} answered 401 to the given --access-token, sent as Authorization: Bearer${said}. Check the token. Nothing else was sent.`;
}

function notFound(model: ApiModel, base: URL, missing: string[]): string {
  const root = base.pathname.replace(/\/+$/, '');
  const v2Doubled = model.api === 'v2' && /\/v2$/i.test(root);
  const fix = v2Doubled
    ? `drop the trailing /v2 from --base-url (${base.origin}${root.slice(0, -3)}): the v2 paths already start with /v2`
    : `check --base-url: the documented paths are appended to it, so a missing or extra path segment (or another service) answers 404 everywhere`;
  return `every path probed answered 404 (${missing.join(', ')}): ${fix}. Nothing else was sent.`;
}
