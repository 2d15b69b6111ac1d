// Property-based fuzzing of the sandbox's two APIs: requests generated from
// the bundled documents and mutated (helpers/request-arbitraries.ts) go to the
// sandbox with response validation on. It must never answer 5xx, never drop a
// connection, answer every error with the error body the document declares
// for that status and every success with the declared schema, and record no
// contract violation. An answer belongs to the API of the path the router sees
// (percent-decoded): `/v2` and below is v2 (whose error shape holds before any
// handler runs too), everything else partner, `/V2/...` or `//v2/...` included.
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApi, type OperationModel } from '../src/conformance/operations.js';
import { Router } from '../src/sandbox/http/router.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { pointer, validatorFor } from './helpers/openapi.js';
import { describeRequest, type FuzzRequest, requestsForApi } from './helpers/request-arbitraries.js';

const RUNS = { v2: 1200, partner: 2800 };
const authKey = 'sbx_fuzz_key_5e2a9c7d1b';
const accessToken = 'v2_fuzz_token_8f3b6d';

type Api = 'v2' | 'partner';
type Answer = { status: number; headers: IncomingHttpHeaders; text: string };

// The judge's own Ajv, not the sandbox's; the documented operation a target
// reaches is found as the sandbox's router finds it.
const validators = { v2: validatorFor('v2'), partner: validatorFor('partner') };
const routers = { v2: new Router<OperationModel>(), partner: new Router<OperationModel>() };
for (const api of ['v2', 'partner'] as const)
  for (const op of loadApi(api).operations) routers[api].add(op.method, op.path, op);

/** `/v2` and below is the v2 API (the segment compared percent-decoded, as the router does), the rest the partner API. */
const apiOf = (target: string): Api => (/^\/(v|%76)(2|%32)([/?#]|$)/.test(target) ? 'v2' : 'partner');

/** How an answer departs from the document (empty when it conforms): its status, and its body against the schema declared for it. */
function answerProblems(api: Api, method: string, target: string, answer: Answer): string[] {
  const lookup = routers[api].lookup(method, target);
  const op = lookup.found ? lookup.value : undefined;
  const declared = op?.statuses.includes(answer.status);
  if (!declared && answer.status < 400)
    return [`status ${answer.status} is not declared for ${op ? `${op.method} ${op.path}` : 'any operation'}`];
  // An error status the operation does not declare (or no operation): the API's `Error`.
  const schema = declared ? op!.responseSchemaPointer(answer.status) : pointer('components', 'schemas', 'Error');
  if (schema === undefined) return answer.text === '' ? [] : [`status ${answer.status} is declared without a body`];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`body is not JSON (content-type ${answer.headers['content-type']})`];
  }
  const validate = validators[api].at(schema);
  return validate(body)
    ? []
    : (validate.errors ?? []).map((e) => `${schema}: ${e.instancePath || '(body)'} ${e.message}`);
}

/** Sends the raw request with node:http (fetch would normalize the path and merge duplicate headers). */
function send(base: string, req: FuzzRequest, headers: OutgoingHttpHeaders): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    // agent: false, a new connection per request: a connection the server
    // closed after an answer (413 closes it) is never reused, so a dropped
    // request is a real one.
    const options = { method: req.method, path: req.target, headers, agent: false, timeout: 15_000 };
    const r = request(base, options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error('no answer within 15 s')));
    // A server may answer (413) and close before the whole body is written:
    // a write error after the answer arrived is not a crash.
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    r.end(req.body);
  });
}

describe('fuzzing the sandbox (validateResponses on)', () => {
  let sandbox: Sandbox;
  // Webhook URLs the fuzzer sets with PUT /partners point here, never off the machine.
  const sink = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  let sinkUrl = '';
  let knownIds: Record<Api, Record<string, string[]>>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    sandbox = await serveSandbox({ port: 0, authKey, accessToken, validateResponses: true });
    const { verificationIds, userIds } = sandbox.partner.seed();
    knownIds = {
      partner: { verificationId: verificationIds, userId: userIds },
      v2: { id: sandbox.v2.saved().map((s) => s.id) },
    };
  });
  afterAll(async () => {
    await sandbox?.close();
    await new Promise((resolve) => sink.close(resolve));
  });

  /** The sandbox still answers a plain valid call. */
  const alive = async () => {
    const headers = { 'X-Auth-Key': sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' };
    return fetch(`${sandbox.url}/partners`, { headers }).then(
      (res) => res.status === 200,
      () => false,
    );
  };

  /** Node's own answer to what its parser refuses (a raw non-ASCII byte in the path, a request line over 16 KiB): a bare status line, no Date, no body; every answer of the sandbox has a Date. */
  const answeredByNode = (answer: Answer) =>
    [400, 431].includes(answer.status) && answer.headers.date === undefined && answer.text === '';

  /** Throws at a crash, a 5xx, a violation the sandbox saw itself or an answer unlike the document's, which stops the run at once. */
  const judge = (req: FuzzRequest, answer: Answer, shown: string) => {
    const violations = `violations: ${sandbox.violations.join(' | ')}`;
    if (answer.status >= 500) throw new Error(`the sandbox answered ${answer.status}\n    ${shown}\n    ${violations}`);
    if (sandbox.violations.length) throw new Error(`sandbox.${violations}\n    ${shown}`);
    // What Node's parser refuses never reaches the sandbox: Node's own answer owes no error shape.
    if (answeredByNode(answer)) return;
    const api = apiOf(req.target);
    const problems = answerProblems(api, req.method, req.target, answer);
    if (problems.length)
      throw new Error(`the answer is not as the ${api} document declares: ${problems.join('; ')}\n    ${shown}`);
  };

  it.each([
    { api: 'v2' as const, success: ['200'], seen: ['401'] },
    { api: 'partner' as const, success: ['200', '201'], seen: ['401', '404', '409', '413', '415'] },
  ])('$api: generated and mutated requests, no 5xx, every answer as documented', async ({ api, success, seen }) => {
    const uri = fc.constantFrom(
      `${sinkUrl}/hooks/identity`,
      `${sinkUrl}/hooks?partner=1`,
      'urn:isbn:0451450523',
      'mailto:ops@example.com',
    );
    // The credential valid now: a fuzzed POST /auth-keys rotates the key.
    const credential = () => (api === 'v2' ? accessToken : sandbox.partner.activeAuthKey());
    const byStatus: Record<string, number> = {};
    let sent = 0;
    try {
      await fc.assert(
        fc.asyncProperty(requestsForApi(api, { uri, knownIds: knownIds[api] }), async (req) => {
          const headers = req.headers(credential());
          const answer = await send(sandbox.url, req, headers).catch(async (err: Error) => {
            throw new Error(
              `the sandbox dropped the request (${err.message}); still answering: ${await alive()}\n    ${describeRequest(req, headers)}`,
            );
          });
          sent++;
          byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
          judge(
            req,
            answer,
            `${describeRequest(req, headers)}\n    answered ${answer.status} ${answer.text.slice(0, 300)}`,
          );
        }),
        // A fixed seed, so a failure replays.
        { numRuns: RUNS[api], seed: 20260307, endOnFailure: true },
      );
    } finally {
      console.log(`[fuzz] the sandbox (${api}): ${sent} requests; by status ${JSON.stringify(byStatus)}`);
    }
    expect(sent).toBe(RUNS[api]);
    expect(await alive()).toBe(true);
    expect(sandbox.violations).toEqual([]);
    // The run reached the handlers and the validation, not only the credential check.
    expect(success.reduce((n, s) => n + (byStatus[s] ?? 0), 0)).toBeGreaterThan(RUNS[api] / 10);
    expect(byStatus['400']).toBeGreaterThan(RUNS[api] / 10);
    for (const status of seen) expect(byStatus[status], status).toBeGreaterThan(0);
  });
});
