// The conformance run: finds ids through the list operations, checks the
// documented 401s, runs the documented sequences where the target allows
// them, then sends the generated requests; every answer is judged against
// the contract and every departure becomes a violation in the report.
import { writeFile } from 'node:fs/promises';
import { readBundledDocument, readBundledWorkflows } from '../package-files.js';
import { checkAnswer } from './checks.js';
import { BudgetError, Target } from './http.js';
import { loadApi } from './operations.js';
import { tally } from './report.js';
import { invalidRequests, sampleDrafts, validRequests } from './requests.js';
import { inputsFor, runWorkflow, sourcesOf } from './workflows.js';
const BODY_LIMIT = 2000;
const operationName = (op) => `${op.method} ${op.path}`;
class Run {
    options;
    target;
    model;
    report;
    credential;
    constructor(options) {
        this.options = options;
        this.target = new Target({ baseUrl: options.baseUrl, rate: options.rate, maxRequests: options.maxRequests });
        this.target.addSecret(options.credential);
        this.credential = options.credential;
        this.model = loadApi(options.api);
        this.report = { api: options.api, baseUrl: this.target.base.origin + this.target.base.pathname.replace(/\/$/, ''), seed: options.seed, allowWrites: options.allowWrites, requests: 0, operations: [], workflows: [], violations: [] };
        for (const op of this.eligible())
            tally(this.report, op.operationId, operationName(op));
    }
    /** Operations the run may call: reads always; writes with --allow-writes; never key rotation (it has its own flag). */
    eligible() {
        return this.model.operations.filter((op) => op.readOnly || (this.options.allowWrites && op.operationId !== 'createAuthKey'));
    }
    authHeaders(kind, credential = this.credential) {
        if (kind === 'auth-missing')
            return {};
        const value = kind === 'auth-wrong' ? `wrong_${credential.length}_conformance` : credential;
        return this.model.scheme === 'bearer' ? { Authorization: `Bearer ${value}` } : { 'X-Auth-Key': value };
    }
    /** Sends a request of an operation and records what the contract says of the answer. */
    async exchange(op, kind, draft, headers = this.authHeaders(kind)) {
        const e = await this.target.send(op.method, draft.target, headers, draft.body);
        this.report.requests = this.target.sent;
        const row = tally(this.report, op.operationId, operationName(op));
        if (kind === 'valid' || kind === 'discovery')
            row.valid += 1;
        else if (kind === 'invalid')
            row.invalid += 1;
        else if (kind === 'workflow')
            row.workflow += 1;
        else
            row.credentials += 1;
        this.record(op.operationId, operationName(op), kind, e, checkAnswer(op, this.model.doc, kind, e.status, e.received, draft.parsed), draft.rule);
        return e;
    }
    record(operationId, operation, kind, e, problems, rule) {
        if (!problems.length)
            return;
        const text = this.target.redact(e.text);
        tally(this.report, operationId, operation).violations += 1;
        this.report.violations.push({
            api: this.options.api,
            operationId,
            operation,
            kind,
            rule,
            curl: this.target.curl(e),
            status: e.status,
            body: text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} characters)` : text,
            problems,
        });
    }
    /** Ids for path parameters, from the list operations' answers (GET /verifications gives `verificationId`s). */
    async discover() {
        const ids = {};
        const lists = this.model.operations.filter((op) => op.readOnly && !op.params.some((p) => p.in === 'path'));
        for (const list of lists) {
            const e = await this.exchange(list, 'discovery', { target: list.path, body: undefined });
            const items = Object.values((e.received ?? {})).find(Array.isArray);
            const found = (items ?? []).map((it) => it?.id).filter((id) => typeof id === 'string');
            // The list at `/verifications` names the `{verificationId}` of `/verifications/{verificationId}…`.
            const base = list.path.replace(/\/$/, '');
            for (const op of this.model.operations) {
                const m = op.path.startsWith(`${base}/{`) ? /^\{([^}]+)\}/.exec(op.path.slice(base.length + 1)) : null;
                if (m)
                    ids[m[1]] = [...new Set([...(ids[m[1]] ?? []), ...found])];
            }
        }
        return ids;
    }
    context(knownIds, fixedBodies) {
        return { doc: this.model.doc, knownIds, fixedBodies };
    }
    /** Eligible operations this run can build requests for (PUT /partners only with the partner's own values). */
    callable(ctx) {
        return this.eligible().filter((op) => op.operationId !== 'updatePartner' || ctx.fixedBodies?.updatePartner !== undefined);
    }
    /** (c) Missing and wrong credentials get the documented 401, on every operation the run may call. */
    async credentials(ctx) {
        for (const [i, op] of this.callable(ctx).entries()) {
            const [draft] = sampleDrafts(validRequests(ctx, op), this.options.seed + i, 1);
            for (const kind of ['auth-missing', 'auth-wrong'])
                await this.exchange(op, kind, draft);
        }
    }
    /** (b) Valid and invalid requests generated from the contract, spread over the operations. */
    async generated(ctx) {
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
            for (const plan of plans)
                if (k < plan.length)
                    await this.exchange(plan[k].operation, plan[k].kind, plan[k]);
        }
    }
    /** (a) The documented sequences, where the target allows them. */
    async workflows() {
        if (this.options.api !== 'partner')
            return;
        const file = readBundledWorkflows('partner-sequences');
        const docs = { partner: this.model.doc, sandbox: readBundledDocument('sandbox') };
        const skip = (workflowId, reason) => this.report.workflows.push({ workflowId, status: 'skipped', reason });
        let sandboxControl;
        for (const wf of file.workflows) {
            if (!this.options.allowWrites) {
                skip(wf.workflowId, 'writes; run with --allow-writes');
                continue;
            }
            if (wf.workflowId === 'key-rotation') {
                if (!this.options.rotateKeyFile)
                    skip(wf.workflowId, 'rotates the key in use; run with --rotate-key FILE');
                continue; // runs last, in rotate()
            }
            if (sourcesOf(wf).has('sandbox')) {
                sandboxControl ??= await this.probeSandboxControl();
                if (!sandboxControl) {
                    skip(wf.workflowId, 'plays the end user through the sandbox control API (/_sandbox), which the target does not serve');
                    continue;
                }
            }
            if (wf.workflowId === 'webhook-delivery' && !this.options.checkDelivery) {
                skip(wf.workflowId, "needs the partner's webhookUrl to answer 200; run with --check-delivery");
                continue;
            }
            await this.workflow(wf, docs);
        }
    }
    async workflow(wf, docs) {
        const { outcomes, outputs } = await runWorkflow(wf, inputsFor(wf, this.credential), docs, async (call) => {
            const op = call.source === this.options.api ? this.model.operations.find((o) => o.operationId === call.operationId) : undefined;
            if (op)
                return this.exchange(op, 'workflow', { target: call.target, body: call.body, rule: call.where }, call.headers);
            const e = await this.target.send(call.method, call.target, call.headers, call.body);
            this.report.requests = this.target.sent;
            return e;
        });
        const last = outcomes.at(-1);
        if (last?.failed.length) {
            const op = this.model.operations.find((o) => o.operationId === last.call.operationId && last.call.source === this.options.api);
            const operation = op ? operationName(op) : `${last.call.method} ${last.call.target.split('?')[0]}`;
            this.record(last.call.operationId, operation, 'workflow', last.exchange, last.failed.map((c) => `success criterion failed: ${c}`), last.call.where);
            this.report.workflows.push({ workflowId: wf.workflowId, status: 'failed', reason: `step ${last.stepId}: ${last.failed.join('; ')}` });
        }
        else
            this.report.workflows.push({ workflowId: wf.workflowId, status: 'passed' });
        return outputs;
    }
    async probeSandboxControl() {
        const e = await this.target.send('GET', '/_sandbox/clock', {});
        this.report.requests = this.target.sent;
        return e.status === 200 && typeof e.received === 'object';
    }
    async partnerWebhookUrl() {
        const op = this.model.operations.find((o) => o.operationId === 'getPartner');
        const e = await this.exchange(op, 'valid', { target: op.path, body: undefined });
        return e.received?.webhookUrl ?? undefined;
    }
    /** Key rotation: the key-rotation workflow (new key works, old key refused), the new key written to a file. */
    async rotate() {
        if (!this.options.rotateKeyFile || this.options.api !== 'partner')
            return;
        const file = readBundledWorkflows('partner-sequences');
        const wf = file.workflows.find((w) => w.workflowId === 'key-rotation');
        const docs = { partner: this.model.doc, sandbox: readBundledDocument('sandbox') };
        const outputs = await this.workflow(wf, docs);
        const newKey = outputs.newKey;
        if (typeof newKey === 'string') {
            this.target.addSecret(newKey);
            this.credential = newKey;
            await writeFile(this.options.rotateKeyFile, `${newKey}\n`, { mode: 0o600 });
        }
    }
}
/** Runs every part the options allow; throws UnreachableError when the target cannot be reached. */
export async function runConformance(options) {
    const run = new Run(options);
    try {
        const ids = await run.discover();
        const fixedBodies = {};
        if (options.allowWrites && options.api === 'partner') {
            // PUT /partners is sent only with the partner's own webhookUrl: a generated one would redirect its webhooks.
            const current = await run.partnerWebhookUrl();
            if (current)
                fixedBodies.updatePartner = { webhookUrl: current };
        }
        const ctx = run.context(ids, fixedBodies);
        await run.credentials(ctx);
        await run.workflows();
        await run.generated(ctx);
        await run.rotate();
    }
    catch (err) {
        if (!(err instanceof BudgetError))
            throw err;
        run.report.stoppedEarly = err.message;
    }
    run.report.requests = run.target.sent;
    return run.report;
}
