// Every code sample the docs show (generated/samples, rendered as
// x-codeSamples) runs against the sandbox as a partner would run it: the
// curl samples with the real curl binary, the TypeScript samples type-checked
// against the package's types and executed with the package's clients. Each
// must get a documented success status and a body valid against that
// answer's schema. Before each sample the sandbox is reset and given the
// records the sample's documented ids name.
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

  it('send the documented query serialization and credentials', () => {
    const source = (api: string, id: string, label: string) =>
      SAMPLES[api].find((o) => o.operationId === id)!.samples.find((s) => s.label === label)!.source;
    expect(source('v2', 'listVerifications', 'curl')).toMatch(/statuses=[A-Z_]+&statuses=[A-Z_]+/);
    expect(source('v2', 'listVerifications', 'curl')).toContain('-H "Authorization: Bearer $ACCESS_TOKEN"');
    expect(source('partner', 'listVerifications', 'curl')).toMatch(/status=[A-Za-z]+,[A-Za-z]+/);
    expect(source('partner', 'listVerifications', 'curl')).toMatch(/phoneNumber=%2B\d+,%2B\d+/);
    expect(source('partner', 'getPartner', 'curl')).toContain('-H "X-Auth-Key: $AUTH_KEY"');
    // The partner API documents both headers on every call, a GET's included.
    for (const op of SAMPLES.partner) {
      const curl = op.samples.find((s) => s.label === 'curl')!.source;
      expect(curl, op.operationId).toContain('-H "X-Auth-Key: $AUTH_KEY"');
      expect(curl, op.operationId).toContain("-H 'Content-Type: application/json'");
    }
    // The v2 API documents no Content-Type for its GETs.
    expect(source('v2', 'getVerification', 'curl')).not.toContain('Content-Type');
    expect(source('partner', 'createVerification', 'TypeScript')).toContain('createPartnerClient({');
    expect(source('v2', 'getVerification', 'TypeScript')).toContain('createV2Client({');
  });

  it('TypeScript samples type-check against the package (strict, NodeNext)', async () => {
    const snippets: Record<string, string> = {};
    for (const api of APIS) {
      for (const op of SAMPLES[api]) {
        const ts = op.samples.find((s) => s.label === 'TypeScript');
        if (ts) snippets[fileName(api, op)] = ts.source;
      }
    }
    expect(await typeCheck(path.join(WORK, 'typecheck'), snippets)).toBe('');
  });

  for (const api of APIS) {
    for (const op of SAMPLES[api]) {
      for (const sample of op.samples) {
        it(`${api} ${op.operationId} (${op.method.toUpperCase()} ${op.path}): ${sample.label} gets a documented success`, async () => {
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
        });
      }
    }
  }
});
