// Property-based fuzzing of the sandbox's two APIs.
// Requests are generated from the bundled documents (every operation: method,
// path parameters, query, headers, JSON body from the schemas; see
// helpers/request-arbitraries.ts) and mutated: wrong types, out-of-bound
// values, missing required fields, unknown enum values, garbage and non-JSON
// bodies, bodies of ~100 KB and over 1 MiB, odd headers, odd paths, repeated
// or wrongly joined query parameters. They go to the sandbox with response
// validation on (helpers/fuzz-http.ts sends them and judges the answers).
//
// The sandbox must never answer 5xx, never drop a connection, answer every
// error with the error body the document declares for that status, every
// success with the declared schema, and record no contract violation.
//
// Which API an answer belongs to follows the path the router sees
// (percent-decoded): `/v2` and below is the v2 API, everything else the
// partner API (served at `/`), so `/V2/...` or `//v2/...` get the partner's
// error body. The v2 error shape (`code`, `details`) holds for answers made
// before any handler runs too: a malformed percent-escape, the 404 of
// `POST /%762/verifications/`. The partner's `Error` needs only `message`, so
// v2 is the stricter check.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { answerProblems, apiOfTarget, fuzzRequests, operationOf, type Answer } from './helpers/fuzz-http.js';
import { requestsForApi } from './helpers/request-arbitraries.js';

const RUNS = { v2: 1200, partner: 2800 };
const authKey = 'sbx_fuzz_key_5e2a9c7d1b';
const accessToken = 'v2_fuzz_token_8f3b6d';

describe('fuzzing the sandbox (validateResponses on)', () => {
  let sandbox: Sandbox;
  // Webhook URLs the fuzzer sets with PUT /partners point here, never off the machine.
  const sink = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  let sinkUrl = '';
  let knownIds: { partner: Record<string, string[]>; v2: Record<string, string[]> };

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
    try {
      const res = await fetch(`${sandbox.url}/partners`, {
        headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' },
      });
      return res.status === 200;
    } catch {
      return false;
    }
  };

  /** Node's own answer to what its parser refuses (a raw non-ASCII byte in the path, a request line over 16 KiB): a bare status line, no Date, no body; every answer of the sandbox has a Date. */
  const answeredByNode = (answer: Answer) =>
    [400, 431].includes(answer.status) && answer.headers.date === undefined && answer.text === '';

  /** A crash, a 5xx, a violation the sandbox saw itself or an answer unlike the document's stops the run at once. */
  const judge = (req: { method: string; target: string }, answer: Answer, shown: string) => {
    if (answer.status >= 500)
      throw new Error(
        `the sandbox answered ${answer.status}\n    ${shown}\n    violations: ${sandbox.violations.join(' | ')}`,
      );
    if (sandbox.violations.length)
      throw new Error(`sandbox.violations: ${sandbox.violations.join(' | ')}\n    ${shown}`);
    // What Node's parser refuses never reaches the sandbox: Node's own answer owes no error shape.
    if (answeredByNode(answer)) return;
    const api = apiOfTarget(req.target);
    const problems = answerProblems(api, operationOf(api, req.method, req.target), answer);
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
    const byStatus = await fuzzRequests({
      name: `the sandbox (${api})`,
      base: sandbox.url,
      arb: requestsForApi(api, { uri, knownIds: knownIds[api] }),
      numRuns: RUNS[api],
      // The credential valid now: a fuzzed POST /auth-keys rotates the key.
      credential: () => (api === 'v2' ? accessToken : sandbox.partner.activeAuthKey()),
      judge,
      alive,
    });
    expect(await alive()).toBe(true);
    expect(sandbox.violations).toEqual([]);
    // The run reached the handlers and the validation, not only the credential check.
    expect(success.reduce((n, s) => n + (byStatus[s] ?? 0), 0)).toBeGreaterThan(RUNS[api] / 10);
    expect(byStatus['400']).toBeGreaterThan(RUNS[api] / 10);
    for (const status of seen) expect(byStatus[status], status).toBeGreaterThan(0);
  });
});
