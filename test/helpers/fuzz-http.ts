// Sending fuzzed requests and judging the answers, for test/fuzz-sandbox.test.ts
// and test/integration/fuzz-prism.test.ts: the run (raw requests over
// node:http, none may be dropped), the documented operation a request target
// reaches (matched as the sandbox's router does), and the answer checked
// against the schema the document declares for its status.
import { request, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { expect } from 'vitest';
import { loadApi, type OperationModel } from '../../src/conformance/operations.js';
import { pointer, validatorFor } from './openapi.js';
import { describeRequest, headersFor, type FuzzRequest } from './request-arbitraries.js';

/** The APIs the requests are generated from and the answers judged by: the bundled documents' operations. */
export const apis = { v2: loadApi('v2'), partner: loadApi('partner') } as const;
export type Api = keyof typeof apis;
// The judge's own Ajv, not the sandbox's.
const validators = { v2: validatorFor('v2'), partner: validatorFor('partner') } as const;

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Sends the raw request with node:http (fetch would normalize the path and merge duplicate headers). */
function send(base: string, req: FuzzRequest, headers: Record<string, string | string[]>): Promise<Answer> {
  const url = new URL(base);
  // Node sends a DELETE, GET or OPTIONS body without framing unless told its length.
  if (req.body !== undefined) headers = { ...headers, 'content-length': String(Buffer.byteLength(req.body)) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = request(
      // agent: false, a new connection per request: a connection the server
      // closed after an answer (413 closes it) is never reused, so a dropped
      // request is a real one.
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.target,
        headers,
        agent: false,
        timeout: 15_000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error('no answer within 15 s')));
    // A server may answer (413) and close before the whole body is written:
    // a write error after the answer arrived is not a crash.
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    r.end(req.body);
  });
}

export interface FuzzRun {
  /** Who answers, for the messages: `the sandbox`, `Prism`. */
  name: string;
  base: string;
  arb: fc.Arbitrary<FuzzRequest>;
  numRuns: number;
  credential: () => string;
  /** Throws when an answer breaks the property; `shown` is the request and the answer, for its message. */
  judge: (req: FuzzRequest, answer: Answer, shown: string) => void;
  /** Whether the server still answers, told when it dropped a request. */
  alive?: () => Promise<boolean>;
}

/** Sends `numRuns` generated requests (fast-check's seed, so a failure replays); none may be dropped. Returns the count of each status. */
export async function fuzzRequests(run: FuzzRun): Promise<Record<string, number>> {
  const byStatus: Record<string, number> = {};
  let sent = 0;
  try {
    await fc.assert(
      fc.asyncProperty(run.arb, async (req) => {
        const headers = headersFor(req, run.credential());
        let answer: Answer;
        try {
          answer = await send(run.base, req, headers);
        } catch (err) {
          const alive = run.alive ? `; still answering: ${await run.alive()}` : '';
          throw new Error(
            `${run.name} dropped the request (${(err as Error).message})${alive}\n    ${describeRequest(req, headers)}`,
          );
        }
        sent++;
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        run.judge(
          req,
          answer,
          `${describeRequest(req, headers)}\n    answered ${answer.status} ${answer.text.slice(0, 300)}`,
        );
      }),
      { numRuns: run.numRuns, seed: 20260307, endOnFailure: true },
    );
  } finally {
    console.log(`[fuzz] ${run.name}: ${sent} requests; by status ${JSON.stringify(byStatus)}`);
  }
  expect(sent).toBe(run.numRuns);
  return byStatus;
}

/** The API a request target belongs to: `/v2` and below is the v2 API, the rest the partner API. */
export const apiOfTarget = (target: string): Api => (decodedSegments(target)[1] === 'v2' ? 'v2' : 'partner');

/** The path's segments, each percent-decoded where it decodes (the router compares decoded segments: `/%61uth-keys` is `/auth-keys`). */
function decodedSegments(target: string): string[] {
  return target
    .split('?')[0]
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** The documented operation a request reaches, matched as the router does (static segments before parameters). */
export function operationOf(api: Api, method: string, target: string): OperationModel | undefined {
  const raw = target.split('?')[0].split('/');
  const decoded = decodedSegments(target);
  let best: { op: OperationModel; statics: number } | undefined;
  for (const op of apis[api].operations) {
    const template = op.path.split('/');
    if (op.method !== method || template.length !== raw.length) continue;
    const params = template.filter((t) => /^\{.+\}$/.test(t)).length;
    const matches = template.every((t, i) => (/^\{.+\}$/.test(t) ? raw[i] !== '' : t === decoded[i]));
    if (matches && (!best || template.length - params > best.statics)) best = { op, statics: template.length - params };
  }
  return best?.op;
}

/** How an answer departs from the document (empty when it conforms): its status, and its body against the schema declared for it. */
export function answerProblems(api: Api, op: OperationModel | undefined, answer: Answer): string[] {
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
