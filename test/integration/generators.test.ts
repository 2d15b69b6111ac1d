// The generators of guides/generators.md, configured as it says, generate code
// that passes tsc --strict, whose zod modules import (a discriminated union that
// cannot read its discriminator throws there), and whose clients talk to the
// sandbox with the documented query forms and headers on the wire.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import axios from 'axios';
import { generateZodClientFromOpenAPI } from 'openapi-zod-client';
import { generate as orval } from 'orval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { serveSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { tscReport } from '../helpers/typescript-snippets.js';

const GENERATED_APIS = ['v2', 'partner'] as const;
type GeneratedApi = (typeof GENERATED_APIS)[number];

const bundle = (api: GeneratedApi) => path.join(ROOT, 'generated', 'openapi', `${api}.json`);

let dir: string;
let sandbox: Sandbox;
/** Absolute path of a generated file, e.g. file('ozc', 'partner.ts'). */
const file = (...parts: string[]) => path.join(dir, ...parts);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vc-generators-'));
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const api of GENERATED_APIS) {
    await heyApi(api, file('hey-api', api));
    await orvalFetchAndZod(api, file('orval', api));
    await openapiZodClient(api, file('ozc', `${api}.ts`));
  }
  sandbox = await serveSandbox({ port: 0, validateResponses: true });
}, HANG_CEILING_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  if (!sandbox) return;
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

/** A fetch that records the address of every request a client sends, then lets it through. */
function recordingFetch() {
  const urls: URL[] = [];
  const record = (request: Request) => {
    urls.push(new URL(request.url));
    return fetch(request);
  };
  return { urls, fetch: record };
}

// Generated at test time, so typed loosely here; tsc --strict checks them below.
const load = (...parts: string[]): Promise<any> => import(file(...parts));

describe('generated code', () => {
  it(
    'passes tsc --strict --noEmit (hey-api, orval fetch and zod, openapi-zod-client)',
    async () => {
      expect(await typeCheck()).toBe('');
    },
    HANG_CEILING_MS,
  );

  it.each(GENERATED_APIS)('imports the openapi-zod-client and orval zod modules of %s', async (api) => {
    const ozc = await load('ozc', `${api}.ts`);
    const orvalZod = await load('orval', api, 'zod.ts');
    expect(Object.keys(ozc.schemas).length).toBeGreaterThan(5);
    expect(Object.keys(orvalZod).length).toBeGreaterThan(5);
  });

  it('openapi-zod-client discriminates collected requirements on `type` and webhooks on `eventType`', async () => {
    const { schemas } = await load('ozc', 'partner.ts');
    const phoneEntry = { type: 'phoneNumbers', result: null };
    expect(schemas.CollectedRequirement.safeParse(phoneEntry).success).toBe(true);
    expect(schemas.CollectedRequirement.safeParse({ ...phoneEntry, type: 'selfie' }).success).toBe(false);
    const created = { eventId: 'e1', eventType: 'verification.created', dataType: 'verification', data: {} };
    const event = schemas.WebhookEvent.safeParse(created);
    // The verification.created member was chosen: its data is checked.
    expect(event.success).toBe(false);
    expect(JSON.stringify(event.error.issues)).toContain('verificationId');
  });
});

describe('the @hey-api fetch client against the sandbox', () => {
  const client = async (api: 'v2' | 'partner', headers: Record<string, string>) => {
    const { createClient } = await load('hey-api', api, 'client', 'index.ts');
    const sdk = await load('hey-api', api, 'sdk.gen.ts');
    const wire = recordingFetch();
    const c = createClient({ baseUrl: sandbox.url, headers, fetch: wire.fetch });
    // As the guide says: the client removes Content-Type from a call without a body.
    if (api === 'partner')
      c.interceptors.request.use((request: Request) => {
        request.headers.set('Content-Type', 'application/json');
        return request;
      });
    return { sdk, c, urls: () => wire.urls };
  };

  it('sends partner filters comma-separated in one parameter (status=created,started)', async () => {
    const { sdk, c, urls } = await client('partner', { 'X-Auth-Key': sandbox.authKey });
    const created = await sdk.createVerification({
      client: c,
      body: { externalUserId: '6d0c1f3a-2b4e-4c8d-9a1f-3e5b7c9d0a12', redirectUrl: 'https://app.example/done' },
    });
    expect(created.error).toBeUndefined();
    expect(created.response.status).toBe(201);
    const listed = await sdk.listVerifications({ client: c, query: { status: ['created', 'started'] } });
    expect(listed.response.status).toBe(200);
    expect(urls().at(-1)?.search).toBe('?status=created,started');
    expect(listed.data.verifications.map((v: { id: string }) => v.id)).toContain(created.data.id);
    const statuses = listed.data.verifications.map((v: { status: string }) => v.status);
    for (const status of statuses) expect(['created', 'started']).toContain(status);
  });

  it('sends v2 statuses repeated (statuses=CREATED&statuses=STARTED)', async () => {
    const { sdk, c, urls } = await client('v2', { Authorization: `Bearer ${sandbox.accessToken}` });
    const session = sandbox.v2.create({ externalId: 'gen-client-v2', country: 'DE', phoneNo: '+4915112345678' });
    const listed = await sdk.listVerifications({
      client: c,
      query: { statuses: ['CREATED', 'STARTED'], pageSize: 50 },
    });
    expect(listed.response.status).toBe(200);
    expect(urls().at(-1)?.search).toBe('?statuses=CREATED&statuses=STARTED&pageSize=50');
    expect(listed.data.items.map((v: { id: string }) => v.id)).toContain(session.id);
    for (const item of listed.data.items) expect(['CREATED', 'STARTED']).toContain(item.status);
  });
});

describe('the openapi-zod-client (zodios, axios) client against the sandbox, configured as the guide says', () => {
  const client = async (api: 'v2' | 'partner', headers: Record<string, string>) => {
    const { createApiClient } = await load('ozc', `${api}.ts`);
    const wire = recordingFetch();
    const paramsSerializer = api === 'partner' ? { serialize: commaSeparatedParams } : { indexes: null };
    // axios' fetch adapter hands fetch one Request; typed as fetch's two arguments.
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => wire.fetch(new Request(input, init));
    const axiosInstance = axios.create({ adapter: 'fetch', env: { fetch }, headers, paramsSerializer });
    return {
      api: createApiClient(sandbox.url, { axiosInstance }),
      urls: () => wire.urls,
    };
  };

  it('sends partner filters comma-separated and reads the answer through its zod schemas', async () => {
    const { api, urls } = await client('partner', {
      'X-Auth-Key': sandbox.authKey,
      'Content-Type': 'application/json',
    });
    const created = await api.createVerification({
      externalUserId: '0b7c2e4d-5f6a-4b8c-9d0e-1f2a3b4c5d6e',
      redirectUrl: 'https://app.example/done',
    });
    expect(created.status).toBe('created');
    const page = await api.listVerifications({ queries: { status: ['created', 'started'] } });
    expect(urls().at(-1)?.search).toBe('?status=created,started');
    expect(page.verifications.map((v: { id: string }) => v.id)).toContain(created.id);
    for (const v of page.verifications) expect(['created', 'started']).toContain(v.status);
  });

  it('sends v2 statuses repeated', async () => {
    const { api, urls } = await client('v2', { Authorization: `Bearer ${sandbox.accessToken}` });
    await api.listVerifications({ queries: { statuses: ['CREATED', 'STARTED'] } });
    expect(urls().at(-1)?.search).toBe('?statuses=CREATED&statuses=STARTED');
  });
});

describe('the orval fetch client, configured as the guide says', () => {
  it("calls the partner API through the guide's custom fetch, GETs included", async () => {
    const { partnerSettings } = await load('orval', 'partner', 'partner-fetch.ts');
    Object.assign(partnerSettings, { baseUrl: sandbox.url, authKey: sandbox.authKey });
    const partner = await load('orval', 'partner', 'client.ts');
    const created = await partner.createVerification({
      externalUserId: '2c4e6a8b-0d1f-4a3c-8e5b-7d9f1a3c5e7b',
      redirectUrl: 'https://app.example/done',
    });
    expect(created.status).toBe(201);
    const listed = await partner.listVerifications({ status: ['created'] });
    expect(listed.status).toBe(200);
    expect(listed.data.verifications.map((v: { id: string }) => v.id)).toContain(created.data.id);
    expect((await partner.getPartner()).status).toBe(200);
  });

  it('builds partner filters comma-separated and v2 statuses repeated', async () => {
    const partner = await load('orval', 'partner', 'client.ts');
    const v2 = await load('orval', 'v2', 'client.ts');
    const url = partner.getListVerificationsUrl({ status: ['created', 'started'] });
    // orval percent-encodes the comma (URLSearchParams); it decodes to one value.
    expect(new URL(url, 'http://x').searchParams.getAll('status')).toEqual(['created,started']);
    expect(v2.getListVerificationsUrl({ statuses: ['CREATED', 'STARTED'] })).toMatch(
      /\?statuses=CREATED&statuses=STARTED$/,
    );
  });
});

async function heyApi(api: GeneratedApi, out: string) {
  await createClient({
    input: bundle(api),
    output: { path: out },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent', file: false },
  });
}

async function orvalFetchAndZod(api: GeneratedApi, out: string) {
  // Without swagger-parser's check, whose copy of the OpenAPI 3.1 schema calls
  // the valid bundles invalid (guides/generators.md, "Known noise").
  const input = { target: bundle(api), parserOptions: { validate: false } };
  // orval's fetch client repeats every array query parameter unless told
  // otherwise; with `explode: false` it honours each parameter's own
  // `explode` (partner filters are comma-separated, v2 `statuses` repeated).
  const override = { fetch: { explode: false } };
  // The partner client calls the guide's partnerFetch, which adds the base URL and the two headers of every call.
  const mutator = api === 'partner' ? { mutator: { path: await writePartnerFetch(out), name: 'partnerFetch' } } : {};
  await orval({
    input,
    output: {
      target: path.join(out, 'client.ts'),
      client: 'fetch',
      mode: 'single',
      override: { ...override, ...mutator },
    },
  });
  await orval({ input, output: { target: path.join(out, 'zod.ts'), client: 'zod', mode: 'single' } });
}

/**
 * Writes the custom fetch guides/generators.md gives orval's fetch client of
 * the partner API (its ```ts block opening with `// src/partner-fetch.ts`)
 * next to the client, as the guide has it; answers where it is.
 */
async function writePartnerFetch(out: string): Promise<string> {
  const guide = await readFile(path.join(ROOT, 'guides', 'generators.md'), 'utf8');
  const code = /```ts\n(\/\/ src\/partner-fetch\.ts[\s\S]*?)```/.exec(guide)?.[1];
  if (!code) throw new Error('guides/generators.md has no ```ts block opening with // src/partner-fetch.ts');
  const file = path.join(out, 'partner-fetch.ts');
  await mkdir(out, { recursive: true });
  await writeFile(file, code);
  return file;
}

async function openapiZodClient(api: GeneratedApi, out: string) {
  const openApiDoc = JSON.parse(await readFile(bundle(api), 'utf8'));
  await mkdir(path.dirname(out), { recursive: true });
  await generateZodClientFromOpenAPI({
    openApiDoc,
    distPath: out,
    options: { shouldExportAllSchemas: true, withAlias: true },
  });
}

/**
 * axios `paramsSerializer` for the partner API, as guides/generators.md gives
 * it: every array query parameter of that API is one comma-separated value.
 * (axios' default writes `status[]=a&status[]=b`.)
 */
const commaSeparatedParams = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      const values = (Array.isArray(value) ? value : [value]).map((v) => encodeURIComponent(String(v)));
      return `${encodeURIComponent(name)}=${values.join(',')}`;
    })
    .join('&');

/** Type-checks everything generated with tsc --strict; returns tsc's report, '' when it passes. */
function typeCheck(): Promise<string> {
  return tscReport(dir, {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      // Checks the generated code, not the .d.ts of zod or axios.
      skipLibCheck: true,
    },
    include: ['hey-api/**/*.ts', 'orval/**/*.ts', 'ozc/**/*.ts'],
  });
}
