// The generators of guides/generators.md (@hey-api/openapi-ts, orval's fetch
// client and zod, openapi-zod-client), configured as it says, generate from
// the bundles code that passes tsc --strict, whose zod modules import (a zod
// discriminated union that cannot read its discriminator throws at import),
// and whose clients talk to the sandbox with the documented query forms and
// headers on the wire.
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  commaSeparatedParams,
  generateAll,
  GENERATED_APIS,
  typeCheck,
  type Generated,
} from '../helpers/generate-clients.js';
import { recordingFetch } from '../helpers/recording-fetch.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

let generated: Generated;
let sandbox: Sandbox;

beforeAll(async () => {
  generated = await generateAll();
  sandbox = await serveSandbox({ port: 0, validateResponses: true });
}, HANG_CEILING_MS);

afterAll(async () => {
  await generated?.remove();
  if (!sandbox) return;
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

// Generated at test time, so typed loosely here; tsc --strict checks them below.
const load = (...parts: string[]): Promise<any> => import(generated.file(...parts));

describe('generated code', () => {
  it(
    'passes tsc --strict --noEmit (hey-api, orval fetch and zod, openapi-zod-client)',
    async () => {
      expect(await typeCheck(generated)).toBe('');
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
    return { sdk, c, urls: () => wire.requests.map((r) => new URL(r.url)) };
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
      urls: () => wire.requests.map((r) => new URL(r.url)),
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
