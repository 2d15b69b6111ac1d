// The conformance run: finds ids through the list operations, checks the
// documented 401s, runs the documented sequences where the target allows
// them, then sends the generated requests, each answer judged by the contract.
import { writeFile } from 'node:fs/promises';
import { readBundledDocument, readBundledWorkflows } from '../package-files.js';
import type { Json } from '../contract/json.js';
import type { Finding } from './assumptions.js';
import { judgeAnswer, type RequestKind } from './checks.js';
import { BudgetError, preflight, Target, type Exchange } from './http.js';
import { loadApi, type ApiModel, type ApiName, type OperationModel } from './operations.js';
import { rotationNotice, tally, type ConformanceReport, type Violation } from './report.js';
import { invalidRequests, sampleDrafts, validRequests, type Draft, type GenerationContext } from './requests.js';
import { inputsFor, runWorkflow, type StepCall } from './workflows.js';

export interface ConformanceOptions {
  api: ApiName;
  baseUrl: string;
  /** The partner's X-Auth-Key or the v2 bearer token. */
  credential: string;
  seed: number;
  /** Generated requests to send (valid and invalid, spread over the operations). */
  requests: number;
  maxRequests: number;
  /** Requests per second; 0 for no limit. */
  rate: number;
  allowWrites: boolean;
  /** Run the webhook-delivery workflow: the partner's webhookUrl answers 200. */
  checkDelivery?: boolean;
  /** Rotate the auth key (POST /auth-keys) and write the new key to this file. */
  rotateKeyFile?: string;
  /** Told what the run is doing, while it runs (the command line prints it on stderr). */
  progress?: (line: string) => void;
}

const BODY_LIMIT = 2000;
const PROGRESS_EVERY = 50;
const operationName = (op: OperationModel) => `${op.method} ${op.path}`;

class Run {
  readonly target: Target;
  readonly model: ApiModel;
  readonly report: ConformanceReport;
  credential: string;
  /** Whether the target serves the local sandbox's control API, once asked. */
  sandboxControl: boolean | undefined;

  constructor(readonly options: ConformanceOptions) {
    this.target = new Target({
      ...options,
      onSent: (sent) => {
        if (sent % PROGRESS_EVERY === 0)
          this.options.progress?.(`${sent} requests sent, ${this.report.violations.length} violations so far`);
      },
    });
    this.target.addSecret(options.credential);
    this.credential = options.credential;
    this.model = loadApi(options.api);
    const { api, seed, allowWrites } = options;
    const baseUrl = this.target.base.origin + this.target.base.pathname.replace(/\/$/, '');
    this.report = { api, baseUrl, seed, allowWrites, requests: 0, operations: [], workflows: [], violations: [] };
    for (const op of this.eligible()) tally(this.report, op.operationId, operationName(op));
  }

  /** Operations the run may call: reads (GET) always; writes with --allow-writes; never key rotation (it has its own flag). */
  eligible(): OperationModel[] {
    return this.model.operations.filter(
      (op) => op.method === 'GET' || (this.options.allowWrites && op.operationId !== 'createAuthKey'),
    );
  }

  authHeaders(kind: RequestKind): Record<string, string> {
    // The partner document asks for the JSON type on every call, those without a body too.
    const type: Record<string, string> = this.model.scheme === 'bearer' ? {} : { 'Content-Type': 'application/json' };
    if (kind === 'auth-missing') return type;
    const value = kind === 'auth-wrong' ? `wrong_${this.credential.length}_conformance` : this.credential;
    return this.model.scheme === 'bearer' ? { Authorization: `Bearer ${value}` } : { 'X-Auth-Key': value, ...type };
  }

  /** Sends a request of an operation and records what the contract says of the answer. */
  async exchange(
    op: OperationModel,
    kind: RequestKind,
    draft: Pick<Draft, 'target' | 'body' | 'rule' | 'parsed' | 'assumed'>,
    headers = this.authHeaders(kind),
  ): Promise<Exchange> {
    const e = await this.target.send(op.method, draft.target, headers, draft.body);
    const auth = kind === 'auth-missing' || kind === 'auth-wrong';
    const row = tally(this.report, op.operationId, operationName(op));
    row[kind === 'discovery' ? 'valid' : auth ? 'credentials' : kind] += 1;
    const findings = judgeAnswer(op, this.model.doc, kind, e.status, e.received, draft.parsed, draft.assumed);
    this.record({ operationId: op.operationId, operation: operationName(op), kind, rule: draft.rule }, e, findings);
    return e;
  }

  record(where: Pick<Violation, 'operationId' | 'operation' | 'kind' | 'rule'>, e: Exchange, findings: Finding[]) {
    if (!findings.length) return;
    // A violation is the documents' when any rule it breaks is; else it names every assumption it rests on.
    const documents = findings.some((f) => !f.assumed.length);
    const assumptions = documents ? [] : [...new Set(findings.flatMap((f) => f.assumed))];
    const text = this.target.redact(e.text);
    tally(this.report, where.operationId, where.operation).violations += 1;
    this.report.violations.push({
      api: this.options.api,
      ...where,
      curl: this.target.curl(e),
      status: e.status,
      body: text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} characters)` : text,
      problems: findings.map((f) => f.problem),
      basis: documents ? 'documents' : 'assumption',
      assumptions,
    });
  }

  /** Ids for path parameters, from the list operations' answers (GET /verifications gives `verificationId`s). */
  async discover(): Promise<Record<string, string[]>> {
    const ids: Record<string, string[]> = {};
    const lists = this.model.operations.filter((op) => op.method === 'GET' && !op.params.some((p) => p.in === 'path'));
    for (const list of lists) {
      const e = await this.exchange(list, 'discovery', { target: list.path, body: undefined });
      const items: Json[] = Object.values<Json>(e.received ?? {}).find(Array.isArray) ?? [];
      const found = items.map((it) => it?.id).filter((id): id is string => typeof id === 'string');
      // The list at `/verifications` names the `{verificationId}` of `/verifications/{verificationId}…`.
      const base = list.path.replace(/\/$/, '');
      for (const op of this.model.operations) {
        const m = op.path.startsWith(`${base}/{`) ? /^\{([^}]+)\}/.exec(op.path.slice(base.length + 1)) : null;
        if (m) ids[m[1]] = [...new Set([...(ids[m[1]] ?? []), ...found])];
      }
    }
    return ids;
  }

  /** Eligible operations this run can build requests for (PUT /partners only with the partner's own values). */
  callable(ctx: GenerationContext): OperationModel[] {
    return this.eligible().filter(
      (op) => op.operationId !== 'updatePartner' || ctx.fixedBodies?.updatePartner !== undefined,
    );
  }

  /** (c) Missing and wrong credentials get the documented 401, on every operation the run may call. */
  async credentials(ctx: GenerationContext): Promise<void> {
    for (const [i, op] of this.callable(ctx).entries()) {
      const [draft] = sampleDrafts(validRequests(ctx, op), this.options.seed + i, 1);
      for (const kind of ['auth-missing', 'auth-wrong'] as const) await this.exchange(op, kind, draft);
    }
  }

  /** (b) Valid and invalid requests generated from the contract, spread over the operations. */
  async generated(ctx: GenerationContext): Promise<void> {
    const ops = this.callable(ctx);
    const base = Math.floor(this.options.requests / Math.max(1, ops.length));
    const extra = this.options.requests - base * ops.length;
    const plans = ops.map((op, i) => {
      const perOp = base + (i < extra ? 1 : 0);
      const invalid = invalidRequests(ctx, op);
      const nInvalid = invalid ? Math.floor(perOp / 2) : 0;
      const valid = sampleDrafts(validRequests(ctx, op), this.options.seed * 31 + i, perOp - nInvalid);
      return [...valid, ...(invalid ? sampleDrafts(invalid, this.options.seed * 37 + i, nInvalid) : [])];
    });
    // Interleaved, so a run cut short by --max-requests still covers every operation.
    for (let k = 0; plans.some((p) => k < p.length); k++) {
      for (const plan of plans) if (k < plan.length) await this.exchange(plan[k].operation, plan[k].kind, plan[k]);
    }
  }

  /** The documented sequences (the partner API's only). */
  readonly sequences = (): Json[] => readBundledWorkflows('partner-sequences').workflows;

  /** (a) The documented sequences, where the target allows them; key rotation runs last, in rotate(). */
  async workflows(): Promise<void> {
    if (this.options.api !== 'partner') return;
    for (const wf of this.sequences()) {
      const reason = await this.skipReason(wf);
      if (reason) this.report.workflows.push({ workflowId: wf.workflowId, status: 'skipped', reason });
      else if (wf.workflowId !== 'key-rotation') await this.workflow(wf);
    }
  }

  /** Why a workflow cannot run against this target with these options, or undefined when it can. */
  async skipReason(wf: Json): Promise<string | undefined> {
    if (!this.options.allowWrites) return 'writes; run with --allow-writes';
    if (wf.workflowId === 'key-rotation')
      return this.options.rotateKeyFile ? undefined : 'rotates the key in use; run with --rotate-key FILE';
    if (wf.steps.some((s: Json) => s.operationId.startsWith('$sourceDescriptions.sandbox.'))) {
      this.sandboxControl ??= await this.target
        .send('GET', '/_sandbox/clock', {})
        .then((e) => e.status === 200 && typeof e.received === 'object');
      if (!this.sandboxControl)
        return 'plays the end user through the sandbox control API (/_sandbox), which the target does not serve';
    }
    if (wf.workflowId === 'webhook-delivery' && !this.options.checkDelivery)
      return "needs the partner's webhookUrl to answer 200; run with --check-delivery";
    return undefined;
  }

  /** Runs one workflow; `seen` may change what the steps read of an answer, after the contract judged it. */
  async workflow(wf: Json, seen = async (_: StepCall, e: Exchange) => e): Promise<void> {
    // The documents the steps name.
    const docs = { partner: this.model.doc, sandbox: readBundledDocument('sandbox') };
    const inputs = inputsFor(wf, this.credential);
    // The credential this workflow began with: a rotation inside it replaces this.credential.
    const credential = this.credential;
    // A step of the API under test is judged by the contract; a step of another document is only sent.
    const opOf = (call: StepCall) =>
      call.source === this.options.api
        ? this.model.operations.find((o) => o.operationId === call.operationId)
        : undefined;
    const last = await runWorkflow(wf, inputs, docs, async (call) => {
      const op = opOf(call);
      const e = op
        ? await this.exchange(op, 'workflow', { target: call.target, body: call.body, rule: call.where }, call.headers)
        : await this.target.send(call.method, call.target, call.headers, call.body);
      return seen(call, e);
    });
    const shown = Object.fromEntries(Object.entries(inputs).filter(([, value]) => value !== credential));
    if (last) {
      const op = opOf(last.call);
      const operation = op ? operationName(op) : `${last.call.method} ${last.call.target.split('?')[0]}`;
      const { operationId, where: rule } = last.call;
      const failed = last.failed.map((c) => ({
        problem: `success criterion failed: ${c.condition}`,
        assumed: c.assumed,
      }));
      this.record({ operationId, operation, kind: 'workflow', rule }, last.exchange, failed);
      this.report.workflows.push({
        workflowId: wf.workflowId,
        status: 'failed',
        reason: `step ${last.stepId}: ${last.failed.map((c) => c.condition).join('; ')}`,
        inputs: shown,
      });
    } else this.report.workflows.push({ workflowId: wf.workflowId, status: 'passed', inputs: shown });
  }

  /**
   * The key-rotation workflow. The new key (`active: true`, in any position: P31) is written to the file as
   * soon as the rotation answers, before any check of it can fail, so no failure locks the partner out.
   */
  async rotate(): Promise<void> {
    const keyFile = this.options.rotateKeyFile;
    if (!keyFile || this.options.api !== 'partner') return;
    const wf = this.sequences().find((w) => w.workflowId === 'key-rotation');
    try {
      await this.workflow(wf, async (call, e) => {
        if (call.operationId === 'createAuthKey') await this.keepNewKey(keyFile, e);
        // The documents promise no order of keys (P31; lists: none documented):
        // the steps read them by position, so they get them in one order made of their content.
        return call.operationId === 'createAuthKey' || call.operationId === 'listAuthKeys'
          ? { ...e, received: keysInReadingOrder(e.received) }
          : e;
      });
    } catch (err) {
      if (this.report.rotation?.written && err instanceof Error) err.message += `. ${rotationNotice(keyFile)}`;
      throw err;
    }
  }

  /** Writes the key the rotation's answer marks active to the file, and from then on uses it. */
  async keepNewKey(keyFile: string, e: Exchange): Promise<void> {
    const key = activeKey(e.received);
    if (key === undefined || key === this.credential) {
      if (e.status >= 200 && e.status < 300) this.report.rotation = { keyFile, written: false };
      return;
    }
    this.target.addSecret(key);
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    this.credential = key;
    this.report.rotation = { keyFile, written: true };
    this.options.progress?.(rotationNotice(keyFile));
  }
}

/** Runs every part the options allow; throws TargetError when the target cannot be judged. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const run = new Run(options);
  try {
    // A refused credential or a wrong base URL throws TargetError: nothing else is sent.
    options.progress?.(`checking the credential and the base URL with one request to ${run.report.baseUrl}`);
    await preflight(run.target, run.model, run.authHeaders('valid'));
    options.progress?.('finding ids through the list operations');
    const ids = await run.discover();
    const fixedBodies: Record<string, unknown> = {};
    if (options.allowWrites && options.api === 'partner') {
      // PUT /partners is sent only with the partner's own webhookUrl: a generated one would redirect its webhooks.
      const op = run.model.operations.find((o) => o.operationId === 'getPartner')!;
      const { received } = await run.exchange(op, 'valid', { target: op.path, body: undefined });
      const current = (received as { webhookUrl?: string } | undefined)?.webhookUrl;
      if (current) fixedBodies.updatePartner = { webhookUrl: current };
    }
    const ctx: GenerationContext = { doc: run.model.doc, knownIds: ids, fixedBodies };
    options.progress?.('checking that a missing or wrong credential gets the documented 401');
    await run.credentials(ctx);
    if (options.api === 'partner')
      options.progress?.(
        options.allowWrites
          ? 'running the documented sequences (workflows)'
          : 'skipping the workflows (they write; --allow-writes runs them)',
      );
    await run.workflows();
    options.progress?.(`sending ${options.requests} requests generated from the contract (seed ${options.seed})`);
    await run.generated(ctx);
    if (options.rotateKeyFile) options.progress?.('rotating the auth key (key-rotation workflow)');
    await run.rotate();
  } catch (err) {
    if (!(err instanceof BudgetError)) throw err;
    run.report.stoppedEarly = err.message;
  }
  run.report.requests = run.target.sent;
  options.progress?.(`done: ${run.report.requests} requests, ${run.report.violations.length} violations`);
  return run.report;
}

/** The key an answer with `authKeys` marks `active: true`, in whatever position (P31). */
function activeKey(received: unknown): string | undefined {
  const keys = (received as { authKeys?: unknown } | undefined)?.authKeys;
  if (!Array.isArray(keys)) return undefined;
  return keys.find((k) => k?.active === true && typeof k.key === 'string')?.key;
}

/** Auth keys ordered by content: the active key first, then the newest first (the local sandbox's order). */
function keysInReadingOrder(received: unknown): unknown {
  const keys = (received as { authKeys?: unknown } | undefined)?.authKeys;
  if (!Array.isArray(keys)) return received;
  const created = (k: { createdAt?: unknown }) => (typeof k?.createdAt === 'string' ? Date.parse(k.createdAt) || 0 : 0);
  const ordered = [...keys].sort(
    (a, b) => Number(b?.active === true) - Number(a?.active === true) || created(b) - created(a),
  );
  return { ...(received as object), authKeys: ordered };
}
