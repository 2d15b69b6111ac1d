// The sandbox's core behind both doors, answering a DoorRequest with a DoorAnswer; it imports no runtime's modules.
import type { ValidateFunction } from 'ajv';
import { SandboxClock } from './common/clock.js';
import { EmittedWebhooks } from './common/emitted-webhooks.js';
import type { WebhookEvent } from '../webhooks/events.js';
import { randomHex } from './common/random.js';
import type { SchemaCompiler } from '../contract/ajv-compiler.js';
import type { Json } from '../contract/json.js';
import { Contract, type ParsedRequest, type RouteSpec } from '../contract/routes.js';
import { breachMessage, ContractBreach, StrictAnswers } from '../contract/strict-answers.js';
import { controlHandlers } from './operations/control.js';
import { doorRefusal, LOOPBACK_NAMES, type HostAllowlist } from './http/control-guard.js';
import { Dispatcher } from './http/dispatch.js';
import type { DoorAnswer, DoorRequest } from './http/door.js';
import type { ApiName } from './http/error-bodies.js';
import { EndUserPage } from './http/end-user-page.js';
import { homePageAnswer } from './http/home-page.js';
import { partnerHandlers } from './operations/partner.js';
import type { Handler } from './operations/typed.js';
import { v2Handlers } from './operations/v2.js';
import { createPartnerState, type PartnerState } from './partner/state.js';
import { V2State, type V2Verification } from './v2/state.js';
import type { EmittedEvent } from './partner/api.js';
import { WebhookDelivery } from './partner/delivery.js';
import type { SandboxSettings } from './options.js';

type Answer = [number, unknown];

/** The declared options (options.ts), under the same names, and what each door gives the core. */
export interface CoreOptions extends Omit<SandboxSettings, 'onDeliveryFailure'> {
  /** The sandbox's base URL, which verification `url`s carry. */
  url: string;
  documents: Record<ApiName, Json>;
  /** Request validators compiled when the package was built, by `${api}${pointer}` (Contract). */
  precompiled?: Record<string, ValidateFunction>;
  /** Compiles the other schemas (answers, with validateResponses): the node:http door's Ajv. */
  compiler?: (api: ApiName, doc: Json) => SchemaCompiler;
  /** Guards every request by Host and Origin (control-guard.ts): the node:http door always, a fetch handler given `allowedHosts`. */
  hostGuard?: Pick<HostAllowlist, 'port' | 'howToAllow'>;
  /** Where the service's rendered reference is (the home page links it). */
  homepage: string;
  /** What sends the webhooks (the global fetch when absent). */
  fetch?: (request: Request) => Promise<Response>;
  onDeliveryFailure: (line: string) => void;
  /** The time the sandbox clock runs from (real time when absent). */
  now?: () => Date;
  /** Where partner ids come from (UUIDs; random by default). Tests use it to give records documented ids. */
  newId?: () => string;
  /** Check every answer against the documents and answer 500 on a violation (for tests). */
  validateResponses?: boolean;
  /** Wraps each operation's route and handler (the server's faults). */
  wrap?: (route: RouteSpec, handle: Handler) => { route: RouteSpec; handle: Handler };
  /**
   * Called with each answer: with --state it resolves once the state is on disk. `changed` is false for a read
   * that emitted no webhook, which changed nothing (time's work, an expiry, emits one).
   */
  commit?: (answer: Answer, changed: boolean) => Answer | Promise<Answer>;
  /** Called after a delivery result was recorded; with --state it resolves once the result is on disk. */
  onDeliveryRecorded?: () => unknown;
  /** Told of the new active auth key after a request changed it (`POST /auth-keys`, a reset): the command prints it. */
  onAuthKeyChange?: (authKey: string) => void;
}

export type SandboxCore = ReturnType<typeof createSandboxCore>;

const token = (prefix: string) => `${prefix}_${randomHex(16)}`;
const ms = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

function v2Seed(doc: Json): V2Verification[] {
  return Object.values<Json>(doc.components.examples)
    .map((e) => e.value)
    .flatMap((v) => (Array.isArray(v?.items) ? v.items : [v]))
    .filter((v) => typeof v?.id === 'string' && typeof v?.status === 'string');
}

export function createSandboxCore(options: CoreOptions) {
  const { url, documents } = options;
  const accessToken = options.accessToken ?? token('v2');
  const clock = new SandboxClock(options.now);
  const violations: string[] = [];
  // What the in-process doors' waitForWebhook and waitForDelivery look through.
  const webhooks = new EmittedWebhooks<WebhookEvent>();
  const onWebhook = webhooks.listener(options.onWebhook);
  // A field no document names is the sandbox's own bug (strict-answers.ts), logged so the test that provoked it fails.
  const strict = new StrictAnswers(documents);
  const reportBreach = (message: string) => {
    violations.push(message);
    console.error(message);
    return message;
  };
  const seed = v2Seed(documents.v2);
  const v2 = new V2State(() => seed, clock, url);
  // `partner` is read lazily: delivery needs the state, the state emits into delivery.
  let partner: PartnerState;
  // The webhooks the request being run emits, sent once it is committed (see `run`).
  let emittedByRun: EmittedEvent[] | undefined;
  // A webhook of the request being run that broke the contract: never sent, and the request answers 500.
  let breachOfRun: string | undefined;
  const delivery = new WebhookDelivery({
    clock,
    target: () => partner.webhookTarget(),
    authKey: () => partner.activeAuthKey(),
    record: async (eventId, result) => {
      partner.recordDelivery(eventId, result);
      await options.onDeliveryRecorded?.();
    },
    retryIntervalMs: ms(options.retryIntervalSeconds),
    attemptTimeoutMs: ms(options.deliveryTimeoutSeconds),
    onFailure: options.onDeliveryFailure,
    onAttempt: webhooks.attemptListener,
    fetch: options.fetch,
    faults: options.webhookFaults,
  });
  partner = createPartnerState({
    clock,
    authKey: options.authKey ?? token('sbx'),
    webhookUrl: options.webhookUrl,
    publicUrl: url,
    newId: options.newId,
    onEvent: (emitted) => {
      const event = emitted.event;
      const fields = strict.webhookFields(event);
      if (fields.length) {
        const what = `its ${event.eventType} webhook ${emitted.eventId}`;
        const message = reportBreach(breachMessage(what, fields, 'partner'));
        breachOfRun ??= message;
        return;
      }
      if (emittedByRun) emittedByRun.push(emitted);
      else delivery.enqueue(emitted);
      onWebhook(emitted.event, emitted.text);
    },
  });
  const commit = options.commit ?? ((answer: Answer) => answer);
  let announcedKey = partner.activeAuthKey();
  // A request happens at one instant, after time has done its work. With --state a webhook goes out only once the
  // change it reports is on disk: a receiver told of it before its fsync could learn of one a `kill -9` then loses.
  // A refused request commits nothing: what it emitted goes at once.
  const run = (handle: Handler, req: ParsedRequest, reads = false) => {
    const emitted: EmittedEvent[] = [];
    emittedByRun = emitted;
    breachOfRun = undefined;
    let committed: Answer | Promise<Answer> | undefined;
    try {
      const answer = clock.at(() => handle(req));
      if (breachOfRun) throw new ContractBreach(breachOfRun);
      committed = commit(answer, !reads || emitted.length > 0);
      return committed;
    } finally {
      emittedByRun = undefined;
      breachOfRun = undefined;
      for (const event of emitted) delivery.enqueue(event, committed instanceof Promise ? committed : undefined);
      if (partner.activeAuthKey() !== announcedKey) {
        announcedKey = partner.activeAuthKey();
        options.onAuthKeyChange?.(announcedKey);
      }
    }
  };

  const contract = (api: ApiName) =>
    new Contract(api, documents[api], {
      precompiled: options.precompiled,
      compiler: options.compiler?.(api, documents[api]),
    });
  const contracts: Record<ApiName, Contract> = {
    v2: contract('v2'),
    partner: contract('partner'),
    sandbox: contract('sandbox'),
  };
  // The one widening of the handlers' types: each is called with what its route's parse checked against its document.
  const typed = {
    v2: v2Handlers(v2),
    partner: partnerHandlers(partner),
    sandbox: controlHandlers({
      partner,
      v2,
      clock,
      delivery,
      credentials: () => ({ url, authKey: partner.activeAuthKey(), accessToken }),
    }),
  } satisfies Record<ApiName, Record<string, (req: never) => ReturnType<Handler>>>;
  const handlers = typed as unknown as Record<ApiName, Record<string, Handler>>;

  const dispatcher = new Dispatcher({
    contracts,
    handlers,
    wrap: options.wrap,
    credentials: { authKeyState: (key) => partner.authKeyState(key), accessToken },
    run,
    allowUnknownFields: Boolean(options.allowUnknownFields),
    validateResponses: Boolean(options.validateResponses),
    violations,
    breach: (api, status, body, route) => {
      const fields = strict.answerFields(api, route, status, body);
      if (!fields.length) return undefined;
      const what = `its ${status} answer to ${route ? route.operationId : `a request of the ${api} API`}`;
      return reportBreach(breachMessage(what, fields, api));
    },
  });
  const endUserPage = new EndUserPage({
    control: { contract: contracts.sandbox, handlers: handlers.sandbox },
    getVerification: handlers.partner.getVerification,
    run,
    verificationIdForToken: (token) => partner.verificationIdForToken(token),
    isV2Session: (id) => v2.saved().some((s) => s.id === id),
    phoneNumberHeld: (id) => partner.phoneNumberHeld(id),
  });

  // This machine's names, the one the sandbox is called by (its `url`), and those the partner added.
  const allowed: HostAllowlist | undefined = options.hostGuard && {
    ...options.hostGuard,
    names: [...new Set([...LOOPBACK_NAMES, new URL(url).hostname])],
    allowedHosts: (options.allowedHosts ?? []).map((name) => name.toLowerCase()),
  };

  return {
    /** The answer to a request; undefined when it broke off before its body was complete (no one to answer). */
    answer: async (req: DoorRequest): Promise<DoorAnswer | undefined> => {
      // Before anything reads the request: a page of its own on an end user's page, else the API's error shape.
      const refused = allowed && doorRefusal(allowed, req.target, req.header);
      if (refused) {
        const { status, message } = refused;
        return endUserPage.refusal(req.target, status, message) ?? dispatcher.refusal(req.target, status, message);
      }
      const page = endUserPage.answer(req);
      if (page) return page;
      return homePageAnswer(req, url, documents, options.homepage) ?? dispatcher.answer(req);
    },
    authKey: () => partner.activeAuthKey(),
    accessToken,
    clock,
    partner,
    v2,
    delivery,
    violations,
    waitForWebhook: webhooks.waitFor,
    waitForDelivery: webhooks.waitForDelivery,
    /** Stops webhook retries and rejects the waits still pending. */
    close: () => {
      webhooks.close();
      delivery.close();
    },
  };
}
