// Every code sample the docs show (generated/samples) runs against the
// local sandbox as a partner would run it: curl samples with the real curl,
// TypeScript samples type-checked against the package and run with its
// clients. Each gets a documented success, its body valid against that
// answer's schema; the sandbox, strict about credentials, Content-Type and
// list serialization, is first given the records the sample's ids name.
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRequest } from '../../scripts/lib/code-samples.mjs';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { serveSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { deref, loadBundle, pointer, validatorFor, type Json } from '../helpers/openapi.js';
import { IdSource, prepare, type SampleTarget } from '../helpers/sample-state.js';
import { run, scratchDir, typeCheck, writeModule } from '../helpers/typescript-snippets.js';

const APIS = ['v2', 'partner', 'sandbox'] as const;
let WORK: string;

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface OperationSamples {
  operationId: string;
  method: string;
  path: string;
  samples: Sample[];
}

const samplesOf = async (api: string): Promise<OperationSamples[]> =>
  JSON.parse(await readFile(path.join(ROOT, 'generated', 'samples', `${api}.json`), 'utf8'));
const SAMPLES = Object.fromEntries(await Promise.all(APIS.map(async (api) => [api, await samplesOf(api)] as const)));

let sandbox: Sandbox;
const ids = new IdSource();

// Where the documents' example ids and filter values come from, as the samples take them.
const partnerDoc = loadBundle('partner');
const DEFAULTS = {
  verificationId: sampleRequest(partnerDoc, '/verifications/{verificationId}', 'get').pathParams
    .verificationId as string,
  userId: sampleRequest(partnerDoc, '/users/{userId}', 'get').pathParams.userId as string,
  filters: Object.fromEntries(
    sampleRequest(partnerDoc, '/verifications', 'get').query.map((q: Json) => [q.name, q.value]),
  ),
};

function targetOf(api: string, op: OperationSamples): SampleTarget {
  const request = sampleRequest(loadBundle(api), op.path, op.method);
  const phones = [DEFAULTS.filters.phoneNumber?.[0], request.body?.phoneNumber].filter(
    (p): p is string => typeof p === 'string',
  );
  return {
    operationId: op.operationId,
    verificationId: request.pathParams.verificationId ?? request.body?.verificationId ?? DEFAULTS.verificationId,
    userId: request.pathParams.userId ?? DEFAULTS.userId,
    phoneNumbers: [...new Set(phones)],
    externalUserId: DEFAULTS.filters.externalUserId?.[0] ?? randomUUID(),
    eventId: request.pathParams.eventId,
  };
}

const environment = () => ({
  ...process.env,
  V2_URL: sandbox.url,
  ACCESS_TOKEN: sandbox.accessToken,
  PARTNER_URL: sandbox.url,
  AUTH_KEY: sandbox.partner.activeAuthKey(),
  SANDBOX_URL: sandbox.url,
});

const fileName = (api: string, op: OperationSamples) => `${api}-${op.operationId}`;

async function runCurl(name: string, source: string) {
  const bodyFile = path.join(WORK, `${name}.body`);
  // The real curl binary with the sample's arguments; the wrapper only adds where the answer goes.
  const script = `curl() { command curl -sS -o '${bodyFile}' -w '%{http_code}' "$@"; }\n${source}`;
  const { stdout } = await run('bash', ['-c', script], { env: environment() });
  return { status: Number(stdout.trim()), text: await readFile(bodyFile, 'utf8') };
}

async function runTypeScript(name: string, source: string) {
  const file = await writeModule(WORK, name, source);
  const record = path.join(WORK, `${name}.record`);
  await rm(record, { force: true });
  await run(process.execPath, ['--import', path.join(WORK, 'record-fetch.mjs'), file], {
    env: { ...environment(), SAMPLE_RECORD: record },
  });
  const answers = (await readFile(record, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(answers, 'the sample makes exactly one request').toHaveLength(1);
  return answers[0] as { status: number; text: string };
}

// Records every answer the sample's client receives (status and body text).
const RECORDER = `import { appendFileSync } from 'node:fs';
const realFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const response = await realFetch(...args);
  appendFileSync(process.env.SAMPLE_RECORD, JSON.stringify({ status: response.status, text: await response.clone().text() }) + '\\n');
  return response;
};
`;

function expectDocumentedSuccess(api: string, op: OperationSamples, answer: { status: number; text: string }) {
  const doc = loadBundle(api);
  const operation = doc.paths[op.path][op.method];
  const documented = Object.keys(operation.responses).filter((s) => s.startsWith('2'));
  expect(documented, `${answer.status} ${answer.text}`).toContain(String(answer.status));
  const raw = operation.responses[answer.status];
  const response = deref(doc, raw);
  if (!response.content?.['application/json']) {
    expect(answer.text).toBe('');
    return;
  }
  const base = raw.$ref ? raw.$ref.slice(1) : pointer('paths', op.path, op.method, 'responses', answer.status).slice(1);
  const validators = validatorFor(api);
  const validate = validators.at(`#${base}/content/application~1json/schema`);
  expect(validate(JSON.parse(answer.text)), validators.errors(validate)).toBe(true);
}

beforeAll(async () => {
  await rm(path.join(ROOT, 'test-results', 'code-samples'), { recursive: true, force: true });
  WORK = await scratchDir('code-samples');
  await writeFile(path.join(WORK, 'record-fetch.mjs'), RECORDER);
  // The resend sample's webhook goes where no one answers: its failure lines are not what these tests check.
  sandbox = await serveSandbox({
    port: 0,
    validateResponses: true,
    newId: ids.next,
    onDeliveryFailure: () => undefined,
  });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('the code samples', () => {
  it('cover every operation of every API, with curl, and TypeScript where the package has a client', () => {
    for (const api of APIS) {
      const doc = loadBundle(api);
      const operations = Object.values<Json>(doc.paths)
        .flatMap((item) => Object.values<Json>(item).map((o) => o.operationId))
        .filter(Boolean);
      expect(SAMPLES[api].map((o) => o.operationId).sort(), api).toEqual(operations.sort());
      for (const op of SAMPLES[api]) {
        expect(
          op.samples.map((s) => s.label),
          `${api} ${op.operationId}`,
        ).toEqual(api === 'sandbox' ? ['curl'] : ['curl', 'TypeScript']);
      }
    }
  });

  it('TypeScript samples type-check against the package (as `tsc --init` sets a project up)', async () => {
    const snippets: Record<string, string> = {};
    for (const api of APIS) {
      for (const op of SAMPLES[api]) {
        const ts = op.samples.find((s) => s.label === 'TypeScript');
        if (ts) snippets[fileName(api, op)] = ts.source;
      }
    }
    expect(await typeCheck(path.join(WORK, 'typecheck'), snippets)).toBe('');
  });

  const cases = APIS.flatMap((api) => SAMPLES[api].flatMap((op) => op.samples.map((sample) => ({ api, op, sample }))));
  it.each(cases)(
    '$api $op.operationId ($op.method $op.path): $sample.label gets a documented success',
    async ({ api, op, sample }) => {
      const reset = await fetch(`${sandbox.url}/_sandbox/reset`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(reset.status).toBe(204);
      prepare(sandbox, ids, targetOf(api, op));
      const name = `${fileName(api, op)}-${sample.label}`;
      const answer =
        sample.label === 'curl' ? await runCurl(name, sample.source) : await runTypeScript(name, sample.source);
      expectDocumentedSuccess(api, op, answer);
      expect(sandbox.violations).toEqual([]);
    },
  );
});
