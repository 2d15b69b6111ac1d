// The end user's page: what a browser gets at a verification's `url`
// (`/s/{verificationId}?token=…`). The sandbox plays the service's hosted
// journey of the partner source document: opening the link moves `created`
// to `started`; buttons apply the outcomes the lifecycle allows from the
// current status; after `inReview`, `completed` or `declined` the browser
// goes to `redirectUrl`, and on an expired, closed or wrong link to
// `errorRedirectUrl` (S27). Every change runs as the control
// operation it stands for (the same handlers, webhooks and --state file).
// The page is plain HTML with forms: no script, no external asset.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { components } from '../../../generated/types/partner.js';
import type { Contract, ParsedRequest } from '../../contract/routes.js';
import { errorBody } from './error-bodies.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handler } from '../operations/partner.js';
import { escapeHtml, htmlPage, sendHtml } from './html.js';

type Verification = components['schemas']['Verification'];
type Answer = [number, unknown];

export interface EndUserPageDeps {
  /** The sandbox's base URL (verification urls carry it). */
  url: string;
  port: number;
  /** The control API's contract and handlers: each button is one of its operations. */
  control: { contract: Contract; handlers: Record<string, Handler> };
  /** Reads a verification as `GET /verifications/{id}` does. */
  getVerification: Handler;
  /** Runs a handler as the HTTP layer does (its effects saved with --state). */
  run: (handle: Handler, req: ParsedRequest) => Answer | Promise<Answer>;
  /** The verification id a session token belongs to. */
  verificationIdForToken: (token: string) => string | undefined;
  /** Whether a v2 session has this id (its link has no journey in the sandbox). */
  isV2Session: (id: string) => boolean;
}

/** The buttons, by the outcome they stand for. */
export const OUTCOMES = {
  complete: 'Complete',
  waiting: 'Waiting for user input',
  review: 'Needs review',
  decline: 'Decline',
} as const;
export type Outcome = keyof typeof OUTCOMES;

const PATH = /^\/s\/([^/?#]+)$/;
/** Where the journey hands the user back to the partner. */
const HANDED_BACK = new Set(['inReview', 'completed', 'declined']);
/** Where the link can no longer be used (the document's "error, for example an expired token"). */
const DEAD = new Set(['closed', 'expired', 'reverted']);
const DEFAULT_NAME = { firstName: 'Alex', lastName: 'Sandbox' };
const DEFAULT_DATE_OF_BIRTH = '1990-01-01';

const required = (v: Verification, type: string) => (v.requirements ?? []).some((r) => r.type === type);
const collected = (v: Verification, type: string) => v.collectedRequirements.some((c) => c.type === type && c.result !== null);
const missingName = (v: Verification) => required(v, 'firstAndLastName') && !collected(v, 'firstAndLastName');
const missingDateOfBirth = (v: Verification) => required(v, 'dateOfBirth') && !collected(v, 'dateOfBirth');

/** The outcomes the lifecycle allows from a status, as buttons. */
export function allowedOutcomes(v: Verification): Outcome[] {
  if (v.status === 'started') return missingName(v) || missingDateOfBirth(v) ? ['complete', 'waiting', 'review', 'decline'] : ['complete', 'review', 'decline'];
  // From waitingForUserInput the sandbox's lifecycle moves on when the missing data is entered.
  if (v.status === 'waitingForUserInput') return ['complete'];
  return [];
}

export class EndUserPage {
  constructor(private readonly deps: EndUserPageDeps) {}

  /** Answers the request when it is for a session page; false when it is not one. */
  serves(req: IncomingMessage, res: ServerResponse): boolean {
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const match = PATH.exec(query === -1 ? target : target.slice(0, query));
    if (!match) return false;
    const token = new URLSearchParams(query === -1 ? '' : target.slice(query + 1)).get('token') ?? '';
    let id: string;
    try {
      id = decodeURIComponent(match[1]);
    } catch {
      id = match[1];
    }
    this.handle(req, res, id, token).catch((err: Error) => {
      if (!res.headersSent) sendHtml(res, 500, htmlPage('Sandbox error', `<p>The sandbox failed to serve this page: ${escapeHtml(err.message)}</p>`));
      else res.destroy(err);
    });
    return true;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, id: string, token: string): Promise<void> {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      return sendHtml(res, 405, htmlPage('Method not allowed', `<p>This page answers GET and POST, not ${escapeHtml(method)}.</p>`), { allow: 'GET, HEAD, POST' });
    }
    const refusal = this.refusal(req);
    if (refusal) return sendHtml(res, 403, htmlPage('Refused', `<p>${escapeHtml(refusal)}</p>`));
    const body = method === 'POST' ? await readForm(req) : undefined;
    if (body === null) return sendHtml(res, 413, htmlPage('Form too large', '<p>The form sent is larger than 16 KiB.</p>'));

    // A token of another verification, or none, is a wrong link to the verification the path names:
    // its own errorRedirectUrl, never the other one's.
    const owner = this.deps.verificationIdForToken(token);
    let v = await this.read(id);
    if (!v && this.deps.isV2Session(id)) {
      return this.errorPage(res, 404, `${id} is a v2 session: the sandbox has no end user's journey for v2 sessions; create one with the status it should have (POST /_sandbox/v2/verifications).`);
    }
    if (!v) return this.errorPage(res, 404, `No verification ${id} exists in this sandbox (was it reset, or made by another sandbox?).`);
    if (owner !== id) return this.wrongLink(res, v, 'The link is not valid: its token does not belong to this verification. Open the url the partner API returned.');
    if (DEAD.has(v.status)) return this.wrongLink(res, v, `The link no longer works: the verification is ${v.status}.`);
    if (HANDED_BACK.has(v.status)) return this.handBack(res, v);

    if (method === 'POST') {
      const outcome = body!.get('outcome') ?? '';
      if (!(outcome in OUTCOMES) || !allowedOutcomes(v).includes(outcome as Outcome)) {
        const allowed = allowedOutcomes(v).map((o) => OUTCOMES[o]).join(', ');
        return this.errorPage(res, 409, `"${outcome}" is not an outcome of a verification in status ${v.status} (allowed: ${allowed || 'none'}). Reload the page to see its buttons.`, selfUrl(id, token));
      }
      try {
        v = await this.act(v, outcome as Outcome, body!);
      } catch (err) {
        if (!(err instanceof SandboxError)) throw err;
        return this.errorPage(res, err.status, err.message, selfUrl(id, token));
      }
      if (HANDED_BACK.has(v.status)) return this.handBack(res, v);
      // Post/redirect/get: a reload does not send the form again.
      return redirect(res, selfUrl(id, token));
    }

    // The end user opens the link: `created` becomes `started` (`verification.updated`).
    // A HEAD (a link preview) changes nothing.
    if (v.status === 'created' && method === 'GET') v = await this.run('openVerificationLink', v.id, undefined);
    sendHtml(res, 200, sessionPage(v, token), {}, method === 'HEAD');
  }

  /** A page the sandbox serves only to a browser that reached it under its own address, and forms only from itself. */
  private refusal(req: IncomingMessage): string | undefined {
    const host = (req.headers.host ?? '').toLowerCase();
    const own = new URL(this.deps.url).host;
    const allowed = [own, `localhost:${this.deps.port}`, `127.0.0.1:${this.deps.port}`, `[::1]:${this.deps.port}`];
    if (!allowed.includes(host)) return `This page is served only under ${this.deps.url}, not Host ${JSON.stringify(req.headers.host ?? '')}.`;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) return `Forms are accepted only from this page, not from ${JSON.stringify(origin)}.`;
    return undefined;
  }

  /** The steps an outcome takes through the control operations. */
  private async act(v: Verification, outcome: Outcome, form: URLSearchParams): Promise<Verification> {
    const steps: [string, unknown][] = [];
    if (outcome === 'complete') {
      if (missingName(v)) steps.push(['enterName', { firstName: form.get('firstName') ?? DEFAULT_NAME.firstName, lastName: form.get('lastName') ?? DEFAULT_NAME.lastName }]);
      if (missingDateOfBirth(v)) steps.push(['enterDateOfBirth', { dateOfBirth: form.get('dateOfBirth') ?? DEFAULT_DATE_OF_BIRTH }]);
      if (required(v, 'phoneNumbers') && !collected(v, 'phoneNumbers') && (v.phoneNumbers ?? []).length > 0) steps.push(['verifyPhone', undefined]);
    }
    if (v.status === 'started') {
      const scan = { complete: 'pass', waiting: 'pass', review: 'review', decline: 'fail' }[outcome];
      steps.push(['scanVerification', { outcome: scan }]);
    }
    let now = v;
    for (const [operationId, body] of steps) now = await this.run(operationId, v.id, body);
    return now;
  }

  /** One control operation, checked against its document and run as its request would be. */
  private async run(operationId: string, verificationId: string, body: unknown): Promise<Verification> {
    const route = this.deps.control.contract.routes.find((r) => r.operationId === operationId)!;
    const parsed = route.parse({ params: { verificationId }, query: new URLSearchParams(), body });
    if (!parsed.ok) throw new SandboxError(400, String(errorBody('sandbox', 400, undefined, parsed.violations).message));
    const [, answer] = await this.deps.run(this.deps.control.handlers[operationId], parsed.value);
    return answer as Verification;
  }

  private async read(id: string): Promise<Verification | undefined> {
    try {
      const [, answer] = await this.deps.run(this.deps.getVerification, { params: { verificationId: id }, query: {}, body: undefined });
      return answer as Verification;
    } catch (err) {
      if (err instanceof SandboxError && err.status === 404) return undefined;
      throw err;
    }
  }

  private handBack(res: ServerResponse, v: Verification): void {
    if (v.redirectUrl) return redirect(res, v.redirectUrl);
    this.errorPage(res, 200, `The verification is ${v.status}. It has no redirectUrl, so the sandbox shows this page instead.`);
  }

  private wrongLink(res: ServerResponse, v: Verification, message: string): void {
    if (v.errorRedirectUrl) return redirect(res, v.errorRedirectUrl);
    this.errorPage(res, 410, `${message} The verification has no errorRedirectUrl, so the sandbox shows this page instead.`);
  }

  private errorPage(res: ServerResponse, status: number, message: string, back?: string): void {
    const link = back ? `<p><a href="${escapeHtml(back)}">Back to the verification</a></p>` : '';
    sendHtml(res, status, htmlPage('Verification link', `<p role="alert">${escapeHtml(message)}</p>${link}`));
  }
}

const selfUrl = (id: string, token: string) => `/s/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;

function redirect(res: ServerResponse, location: string): void {
  // 303: the browser follows with a GET, also after a form POST.
  res.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-store', 'referrer-policy': 'same-origin' });
  res.end();
}

/** The form fields of a POST (URL-encoded), or null when over 16 KiB. */
function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 16 * 1024) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > 16 * 1024 ? null : new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function sessionPage(v: Verification, token: string): string {
  const outcomes = allowedOutcomes(v);
  const field = (name: string, label: string, value: string, type = 'text') =>
    `<label>${label} <input name="${name}" type="${type}" value="${escapeHtml(value)}" required></label>`;
  const inputs = [
    ...(missingName(v) ? [field('firstName', 'First name', v.firstName ?? DEFAULT_NAME.firstName), field('lastName', 'Last name', v.lastName ?? DEFAULT_NAME.lastName)] : []),
    ...(missingDateOfBirth(v) ? [field('dateOfBirth', 'Date of birth', DEFAULT_DATE_OF_BIRTH, 'date')] : []),
  ];
  const buttons = outcomes
    .map((o) => {
      // Only completing uses the typed data; the other buttons skip the required fields.
      const skip = o === 'complete' ? '' : ' formnovalidate';
      return `<button type="submit" name="outcome" value="${o}"${skip}>${OUTCOMES[o]}</button>`;
    })
    .join(' ');
  const phones = (v.phoneNumbers ?? []).map((p) => p.phoneNumber).join(', ') || 'none';
  const body = `
<p>This is the sandbox standing in for the service's verification page. Choose how the end user's session turns out; each button runs the same lifecycle as the control API (<code>/_sandbox</code>), with the same webhooks.</p>
<dl>
  <dt>Verification</dt><dd><code>${escapeHtml(v.id)}</code></dd>
  <dt>Status</dt><dd id="status">${escapeHtml(v.status)}</dd>
  <dt>Phone numbers</dt><dd>${escapeHtml(phones)}</dd>
  <dt>Requirements</dt><dd>${escapeHtml((v.requirements ?? []).map((r) => r.type).join(', ') || 'none')}</dd>
  <dt>Valid to</dt><dd>${escapeHtml(v.validTo)}</dd>
</dl>
<form method="post" action="${escapeHtml(selfUrl(v.id, token))}">
  ${inputs.join('\n  ')}
  <p>${buttons}</p>
</form>`;
  return htmlPage('Verify your identity (sandbox)', body);
}
