// The end user's page at a verification's `url`, playing the service's hosted journey (S27) in plain HTML forms: each
// button runs the control operation it stands for; the browser goes on to `redirectUrl` or `errorRedirectUrl`.
import type { components } from '../../../generated/types/partner.js';
import type { Contract, ParsedRequest } from '../../contract/routes.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handler } from '../operations/typed.js';
import { orElse, utf8Text, type DoorAnswer, type DoorRequest } from './door.js';
import { errorBody } from './error-bodies.js';
import { escapeHtml, htmlAnswer } from './home-page.js';

type Verification = components['schemas']['Verification'];

export interface EndUserPageDeps {
  /** The control API's contract and handlers: each button is one of its operations. */
  control: { contract: Contract; handlers: Record<string, Handler> };
  /** Reads a verification as `GET /verifications/{id}` does. */
  getVerification: Handler;
  /** Runs a handler as the HTTP layer does (its effects saved with --state). */
  run: (handle: Handler, req: ParsedRequest) => ReturnType<Handler> | Promise<ReturnType<Handler>>;
  verificationIdForToken: (token: string) => string | undefined;
  /** Whether a v2 session has this id (its link has no journey in the sandbox). */
  isV2Session: (id: string) => boolean;
  /** Whether a user holds one of the verification's phone numbers: only then can it be declined for it (S6). */
  phoneNumberHeld: (verificationId: string) => boolean;
}

const OUTCOMES = {
  complete: 'Complete',
  waiting: 'Waiting for user input',
  review: 'Needs review',
  decline: 'Decline',
  anotherUsersPhone: 'Phone number belongs to another user',
} as const;
type Outcome = keyof typeof OUTCOMES;

/** Where the journey hands the user back to the partner. */
const HANDED_BACK = new Set(['inReview', 'completed', 'declined']);
/** Where the link can no longer be used (the document's "error, for example an expired token"). */
const DEAD = new Set(['closed', 'expired', 'reverted']);
const DEFAULTS = { firstName: 'Alex', lastName: 'Sandbox', dateOfBirth: '1990-01-01' };

const missing = (v: Verification, type: string) =>
  (v.requirements ?? []).some((r) => r.type === type) &&
  !v.collectedRequirements.some((c) => c.type === type && c.result !== null);

/** The outcomes the lifecycle allows from a status; the phone-number decline only where a user holds one of its numbers (S6). */
function allowedOutcomes(v: Verification, phoneNumberHeld: boolean): Outcome[] {
  const declines: Outcome[] = phoneNumberHeld ? ['decline', 'anotherUsersPhone'] : ['decline'];
  if (v.status === 'started')
    return missing(v, 'firstAndLastName') || missing(v, 'dateOfBirth')
      ? ['complete', 'waiting', 'review', ...declines]
      : ['complete', 'review', ...declines];
  // Complete enters the missing data; the table also moves waitingForUserInput to inReview and declined.
  if (v.status === 'waitingForUserInput') return ['complete', 'review', ...declines];
  return [];
}

export class EndUserPage {
  constructor(private readonly deps: EndUserPageDeps) {}

  /** The answer when the request is for a session page; undefined when it is not one. */
  answer(req: DoorRequest): Promise<DoorAnswer> | undefined {
    const [path, query = ''] = req.target.split(/\?(.*)/s);
    const id = sessionId(path);
    if (id === undefined) return undefined;
    return this.handle(
      req,
      orElse(() => decodeURIComponent(id), id),
      new URLSearchParams(query).get('token') ?? '',
    ).catch((err: Error) =>
      htmlAnswer(500, 'Sandbox error', `<p>The sandbox failed to serve this page: ${escapeHtml(err.message)}</p>`),
    );
  }

  /** A refusal of a request for a session page, as a page; undefined for any other target (the node:http door's Host guard). */
  refusal(target: string, status: number, message: string): DoorAnswer | undefined {
    return sessionId(target.split('?')[0]) === undefined ? undefined : refused(status, message);
  }

  private async handle(req: DoorRequest, id: string, token: string): Promise<DoorAnswer> {
    const { method } = req;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      return htmlAnswer(
        405,
        'Method not allowed',
        `<p>This page answers GET and POST, not ${escapeHtml(method)}.</p>`,
        { allow: 'GET, HEAD, POST' },
      );
    }
    // Forms only from the page itself (the node:http door has checked the Host).
    const origin = req.header('origin');
    if (origin !== undefined && origin !== req.origin)
      return refused(403, `Forms are accepted only from this page, not from ${JSON.stringify(origin)}.`);
    const raw = method === 'POST' ? await req.body(16 * 1024) : new Uint8Array();
    if (raw === undefined) return htmlAnswer(413, 'Form too large', '<p>The form sent is larger than 16 KiB.</p>');
    const form = new URLSearchParams(utf8Text(raw));

    // A token of another verification, or none, is a wrong link to the one the path names: its own errorRedirectUrl.
    const owner = this.deps.verificationIdForToken(token);
    let v = await this.read(id);
    if (!v && this.deps.isV2Session(id)) {
      return errorPage(
        404,
        `${id} is a v2 session: the sandbox has no end user's journey for v2 sessions; create one with the status it should have (POST /_sandbox/v2/verifications).`,
      );
    }
    if (!v)
      return errorPage(
        404,
        `No verification ${id} exists in this sandbox (was it reset, or made by another sandbox?).`,
      );
    if (owner !== id)
      return wrongLink(
        v,
        'The link is not valid: its token does not belong to this verification. Open the url the partner API returned.',
      );
    if (DEAD.has(v.status)) return wrongLink(v, `The link no longer works: the verification is ${v.status}.`);
    if (HANDED_BACK.has(v.status)) return handBack(v);

    if (method === 'POST') {
      const outcome = form.get('outcome') ?? '';
      const allowed = allowedOutcomes(v, this.deps.phoneNumberHeld(v.id));
      if (!allowed.includes(outcome as Outcome)) {
        const names = allowed.map((o) => OUTCOMES[o]).join(', ') || 'none';
        return errorPage(
          409,
          `"${outcome}" is not an outcome of a verification in status ${v.status} (allowed: ${names}). Reload the page to see its buttons.`,
          selfUrl(id, token),
        );
      }
      try {
        v = await this.act(v, outcome as Outcome, form);
      } catch (err) {
        if (!(err instanceof SandboxError)) throw err;
        return (await this.overtaken(id)) ?? errorPage(err.status, err.message, selfUrl(id, token));
      }
      // Post/redirect/get: a reload does not send the form again.
      return HANDED_BACK.has(v.status) ? handBack(v) : redirect(selfUrl(id, token));
    }

    // The end user opens the link: `created` becomes `started`; a HEAD (a link preview) changes nothing.
    if (v.status === 'created' && method === 'GET') {
      try {
        v = await this.run('openVerificationLink', v.id, undefined);
      } catch (err) {
        if (!(err instanceof SandboxError)) throw err;
        const now = (await this.read(id)) ?? v;
        return (await this.overtaken(id)) ?? sessionPage(now, token, this.deps.phoneNumberHeld(now.id));
      }
    }
    return sessionPage(v, token, this.deps.phoneNumberHeld(v.id));
  }

  /** The link's end as it stands after another request changed the verification under this page's step; undefined while it still works. */
  private async overtaken(id: string): Promise<DoorAnswer | undefined> {
    const now = await this.read(id);
    if (!now) return errorPage(404, `Verification ${id} was removed while this page was served (a reset?).`);
    if (DEAD.has(now.status)) return wrongLink(now, `The link no longer works: the verification is ${now.status}.`);
    return HANDED_BACK.has(now.status) ? handBack(now) : undefined;
  }

  /** The steps an outcome takes through the control operations. */
  private async act(v: Verification, outcome: Outcome, form: URLSearchParams): Promise<Verification> {
    const steps: [string, unknown][] = [];
    const typed = (name: keyof typeof DEFAULTS) => form.get(name) ?? DEFAULTS[name];
    if (outcome === 'complete') {
      if (missing(v, 'firstAndLastName'))
        steps.push(['enterName', { firstName: typed('firstName'), lastName: typed('lastName') }]);
      if (missing(v, 'dateOfBirth')) steps.push(['enterDateOfBirth', { dateOfBirth: typed('dateOfBirth') }]);
      if (missing(v, 'phoneNumbers') && (v.phoneNumbers ?? []).length > 0) steps.push(['verifyPhone', undefined]);
    }
    // In waitingForUserInput the face is already scanned: only a review or a decline scans again.
    if (v.status === 'started' || outcome !== 'complete') {
      const scanOutcomes = {
        complete: 'pass',
        waiting: 'pass',
        review: 'review',
        decline: 'fail',
        anotherUsersPhone: 'phoneNumberOfAnotherUser',
      };
      steps.push(['scanVerification', { outcome: scanOutcomes[outcome] }]);
    }
    let now = v;
    for (const [operationId, body] of steps) now = await this.run(operationId, v.id, body);
    return now;
  }

  /** One control operation, checked against its document and run as its request would be. */
  private async run(operationId: string, verificationId: string, body: unknown): Promise<Verification> {
    const route = this.deps.control.contract.routes.find((r) => r.operationId === operationId)!;
    const parsed = route.parse({ params: { verificationId }, query: new URLSearchParams(), body });
    if (!parsed.ok)
      throw new SandboxError(400, String(errorBody('sandbox', 400, undefined, parsed.violations).message));
    const [, answer] = await this.deps.run(this.deps.control.handlers[operationId], parsed.value);
    return answer as Verification;
  }

  private async read(id: string): Promise<Verification | undefined> {
    try {
      const [, answer] = await this.deps.run(this.deps.getVerification, {
        params: { verificationId: id },
        query: {},
        body: undefined,
      });
      return answer as Verification;
    } catch (err) {
      if (err instanceof SandboxError && err.status === 404) return undefined;
      throw err;
    }
  }
}

const handBack = (v: Verification) =>
  v.redirectUrl
    ? redirect(v.redirectUrl)
    : errorPage(200, `The verification is ${v.status}. It has no redirectUrl, so the sandbox shows this page instead.`);

const wrongLink = (v: Verification, message: string) =>
  v.errorRedirectUrl
    ? redirect(v.errorRedirectUrl)
    : errorPage(410, `${message} The verification has no errorRedirectUrl, so the sandbox shows this page instead.`);

const refused = (status: number, why: string) => htmlAnswer(status, 'Refused', `<p>${escapeHtml(why)}</p>`);

/** The verification id a page's path names (`/s/{verificationId}`), undefined for any other path. */
const sessionId = (path: string) => /^\/s\/([^/?#]+)$/.exec(path)?.[1];

function errorPage(status: number, message: string, back?: string): DoorAnswer {
  const link = back ? `<p><a href="${escapeHtml(back)}">Back to the verification</a></p>` : '';
  return htmlAnswer(status, 'Verification link', `<p role="alert">${escapeHtml(message)}</p>${link}`);
}

const selfUrl = (id: string, token: string) => `/s/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;

// 303: the browser follows with a GET, also after a form POST.
const redirect = (location: string): DoorAnswer => ({
  status: 303,
  headers: { location, 'content-length': '0', 'cache-control': 'no-store', 'referrer-policy': 'same-origin' },
});

function sessionPage(v: Verification, token: string, phoneNumberHeld: boolean): DoorAnswer {
  const field = (name: string, label: string, value: string, type = 'text') =>
    `<label>${label} <input name="${name}" type="${type}" value="${escapeHtml(value)}" required></label>`;
  const inputs = [
    ...(missing(v, 'firstAndLastName')
      ? [
          field('firstName', 'First name', v.firstName ?? DEFAULTS.firstName),
          field('lastName', 'Last name', v.lastName ?? DEFAULTS.lastName),
        ]
      : []),
    ...(missing(v, 'dateOfBirth') ? [field('dateOfBirth', 'Date of birth', DEFAULTS.dateOfBirth, 'date')] : []),
  ];
  // Only completing uses the typed data; the other buttons skip the required fields.
  const buttons = allowedOutcomes(v, phoneNumberHeld).map(
    (o) =>
      `<button type="submit" name="outcome" value="${o}"${o === 'complete' ? '' : ' formnovalidate'}>${OUTCOMES[o]}</button>`,
  );
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
  <p>${buttons.join(' ')}</p>
</form>`;
  return htmlAnswer(200, 'Verify your identity (sandbox)', body);
}
