// The run's Prism mocks (test/helpers/mock-servers.ts) enforce each
// document's credential and bounds and answer its examples, through plain
// fetch and the typed clients (what the clients send is held by the consumer
// test's fixture, test/fixtures/consumer/consumer.ts).
import { describe, expect, inject, it } from 'vitest';
import { createPartnerClient } from '../../src/partner.js';
import { createV2Client } from '../../src/v2.js';
import { validatorFor } from '../helpers/openapi.js';

const mockUrls = inject('mockUrls');
const valid = { v2: validatorFor('v2').expectValid, partner: validatorFor('partner').expectValid };
const authKey = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
const v2Headers = { Authorization: 'Bearer t0k3n' };
const partnerHeaders = { 'X-Auth-Key': authKey, 'Content-Type': 'application/json' };
const createBody = {
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
  redirectUrl: 'https://partner.example.com/kyc/done',
  phoneNumbers: [{ phoneNumber: '+4915112345678', isVerified: false }],
};
const V2_UNAUTHORIZED = { statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' };

interface MockCase {
  api: 'v2' | 'partner';
  path: string;
  headers?: Record<string, string>;
  body?: object;
  status: number;
  /** The schema the answer's body meets, what it holds, or the body itself. */
  schema?: string;
  holds?: object;
  equals?: object;
}

describe('the Prism mocks', () => {
  it.each<[string, MockCase]>([
    ['v2 without a token', { api: 'v2', path: '/v2/verifications/6f1c2b9e', status: 401, equals: V2_UNAUTHORIZED }],
    [
      'v2 with a bad query',
      {
        api: 'v2',
        path: '/v2/verifications/?pageSize=80',
        headers: v2Headers,
        status: 400,
        schema: 'ValidationError',
        holds: { statusCode: 400, code: 'VALIDATION_ERROR' },
      },
    ],
    [
      'v2 asked for its 404 with Prefer',
      {
        api: 'v2',
        path: '/v2/verifications/unknown-id',
        headers: { ...v2Headers, Prefer: 'code=404' },
        status: 404,
        equals: { statusCode: 404, code: 'NOT_FOUND_ERROR', message: 'Not found' },
      },
    ],
    ['v2 list without its trailing slash', { api: 'v2', path: '/v2/verifications', headers: v2Headers, status: 404 }],
    ['partner without X-Auth-Key', { api: 'partner', path: '/partners', status: 401, schema: 'Error' }],
    ...['limit=51', 'page=-1', 'datetimeField=deletedAt', 'status=pending'].map((query): [string, MockCase] => [
      `partner with ${query}`,
      { api: 'partner', path: `/verifications?${query}`, headers: partnerHeaders, status: 400, schema: 'Error' },
    ]),
    ...Object.entries({
      'timeToExpiry under its minimum': { ...createBody, timeToExpiry: 4 },
      'a reason over 200 characters': { ...createBody, reason: 'r'.repeat(201) },
      'no externalUserId': { redirectUrl: createBody.redirectUrl },
    }).map(([name, body]): [string, MockCase] => [
      `a partner create with ${name}`,
      { api: 'partner', path: '/verifications', headers: partnerHeaders, body, status: 400 },
    ]),
    [
      'partner asked for its 409 with Prefer',
      {
        api: 'partner',
        path: '/verifications',
        headers: { ...partnerHeaders, Prefer: 'code=409' },
        body: createBody,
        status: 409,
        schema: 'Error',
      },
    ],
  ])('answers %s as documented', async (_name, { api, path, headers, body, status, schema, holds, equals }) => {
    const res = await fetch(`${mockUrls[api]}${path}`, {
      method: body ? 'POST' : 'GET',
      headers,
      body: body && JSON.stringify(body),
    });
    expect(res.status).toBe(status);
    const answer = await res.text();
    if (schema) valid[api](schema, JSON.parse(answer));
    if (equals) expect(JSON.parse(answer)).toEqual(equals);
    if (holds) expect(JSON.parse(answer)).toMatchObject(holds);
  });

  it('selects a named example with Prefer, and answers a valid create with the created verification', async () => {
    const declined = await fetch(`${mockUrls.v2}/v2/verifications/c3a9e071`, {
      headers: { ...v2Headers, Prefer: 'example=declined' },
    });
    expect((await declined.json()).status).toBe('DECLINED');
    const res = await fetch(`${mockUrls.partner}/verifications`, {
      method: 'POST',
      headers: partnerHeaders,
      body: JSON.stringify(createBody),
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.status).toBe('created');
    expect(created).not.toHaveProperty('updatedAt');
  });
});

describe('the clients against the mock', () => {
  const v2 = createV2Client({ baseUrl: mockUrls.v2, accessToken: 't0k3n' });
  const partner = createPartnerClient({ baseUrl: mockUrls.partner, authKey });

  it('v2: the documented 401 when the token header is removed, and the 400 for an out-of-range page size', async () => {
    const unauthorized = await v2.GET('/v2/verifications/{id}', {
      params: { path: { id: '6f1c2b9e' } },
      headers: { Authorization: null },
    });
    expect(unauthorized.data).toBeUndefined();
    expect(unauthorized.response.status).toBe(401);
    expect(unauthorized.error).toEqual(V2_UNAUTHORIZED);
    const bad = await v2.GET('/v2/verifications/', { params: { query: { pageSize: 51 } } });
    expect(bad.response.status).toBe(400);
    valid.v2('ValidationError', bad.error);
  });

  it('partner: creates a verification and reads one, schema-valid', async () => {
    const created = await partner.POST('/verifications', { body: createBody });
    expect(created.response.status).toBe(201);
    valid.partner('CreatedVerification', created.data);
    const at = { params: { path: { verificationId: created.data!.id } } };
    valid.partner('Verification', (await partner.GET('/verifications/{verificationId}', at)).data);
    const activities = await partner.GET('/verification/{verificationId}/user-activities', at);
    expect(activities.response.status).toBe(200);
  });

  it('partner: the error body for a missing key and for an out-of-range limit', async () => {
    const unauthorized = await partner.GET('/users', { headers: { 'X-Auth-Key': null } });
    expect(unauthorized.response.status).toBe(401);
    valid.partner('Error', unauthorized.error);
    const bad = await partner.GET('/users', { params: { query: { limit: 51 } } });
    expect(bad.response.status).toBe(400);
    valid.partner('Error', bad.error);
  });
});

describe('the clients refuse at construction', () => {
  it('a blank credential, or a base URL not at the API root, naming the option, the fix, or the variable and mock', () => {
    const v2 = (baseUrl: string) => () => createV2Client({ baseUrl, accessToken: 't' });
    for (const [make, names] of [
      [() => createPartnerClient({ baseUrl: mockUrls.partner, authKey: ' ' }), /authKey/],
      [() => createV2Client({ baseUrl: mockUrls.v2, accessToken: '' }), /accessToken/],
      [v2('localhost:4010'), /baseUrl/],
      // An unset variable, the usual cause.
      [v2(process.env.VC_UNSET_BASE_URL!), /V2_URL.*127\.0\.0\.1:4010/],
      [() => createPartnerClient({ baseUrl: '', authKey: 'k' }), /PARTNER_URL.*127\.0\.0\.1:4011/],
      // The paths start with /v2: the fix drops it.
      [v2('http://127.0.0.1:4020/v2'), /baseUrl: "http:\/\/127\.0\.0\.1:4020"/],
      [v2('https://api.example.com/v2/'), /baseUrl: "https:\/\/api\.example\.com"/],
      [v2('https://api.example.com/V2//'), /baseUrl: "https:\/\/api\.example\.com"/],
    ] as const) {
      expect(make).toThrow(TypeError);
      expect(make).toThrow(names);
    }
    // A path that merely contains v2 is someone's mount point, not the doubled prefix.
    expect(v2('https://api.example.com/v2-gateway')).not.toThrow();
    expect(v2('https://api.example.com/kyc')).not.toThrow();
  });
});
