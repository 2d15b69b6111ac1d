// The sandbox over HTTP: credentials, validation from the contract, error
// shapes for every kind of bad request, and v2 reads with real filters. Every
// answer is checked against the documents (validateResponses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { loadBundle, validatorFor } from './helpers/openapi.js';

let sandbox: Sandbox;
const v2 = validatorFor('v2');
const partnerDoc = validatorFor('partner');
const authKey = 'sbx_test_key_7d1e4b9a';
const accessToken = 'v2_test_token_3c8f';

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, authKey, accessToken, validateResponses: true });
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

const call = async (path: string, init: RequestInit & { key?: string | null; token?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key !== null && !path.startsWith('/v2'))
    headers.set('X-Auth-Key', init.key ?? sandbox.partner.activeAuthKey());
  if (init.token !== null && path.startsWith('/v2'))
    headers.set('Authorization', `Bearer ${init.token ?? accessToken}`);
  // The partner API takes the type on every call; the others where a body is sent.
  const partner = !path.startsWith('/v2') && !path.startsWith('/_sandbox');
  if ((partner || init.body !== undefined) && !headers.has('content-type'))
    headers.set('Content-Type', 'application/json');
  const res = await fetch(`${sandbox.url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

describe('credentials', () => {
  it("answers a missing or wrong credential with 401 in each API's shape", async () => {
    expect(await call('/partners', { key: null })).toMatchObject({ status: 401, body: { statusCode: 401 } });
    expect((await call('/partners', { key: 'sbx_wrong' })).status).toBe(401);
    expect(await call('/v2/verifications/', { token: null })).toEqual({
      status: 401,
      body: { statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' },
    });
    expect((await call('/v2/verifications/', { token: 'v2_wrong' })).status).toBe(401);
  });

  it('rotates the auth key: the new one works, the old one stops at once, the list shows both', async () => {
    const old = sandbox.partner.activeAuthKey();
    const rotated = await call('/auth-keys', { method: 'POST', body: '{}' });
    expect(rotated.status).toBe(201);
    const fresh = rotated.body.authKeys.find((k: { active: boolean }) => k.active).key;
    expect(fresh).not.toBe(old);
    expect(rotated.body.authKeys.find((k: { key: string }) => k.key === old)?.active).toBe(false);
    expect((await call('/partners', { key: old })).status).toBe(401);
    expect((await call('/partners', { key: fresh })).status).toBe(200);
    const list = await call('/auth-keys', { key: fresh });
    expect(list.body.authKeys.map((k: { key: string; active: boolean }) => [k.key, k.active])).toEqual(
      expect.arrayContaining([
        [old, false],
        [fresh, true],
      ]),
    );
  });
});

describe('validation from the contract', () => {
  it('v2: one details entry per offending field, with field, reasonCode and params', async () => {
    const res = await call('/v2/verifications/?pageSize=80&page=-1&statuses=PENDING&createdFrom=yesterday');
    expect(res.status).toBe(400);
    v2.expectValid('ValidationError', res.body);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'createdFrom',
      'page',
      'pageSize',
      'statuses.0',
    ]);
    const size = res.body.details.find((d: { field: string }) => d.field === 'pageSize');
    expect(size).toMatchObject({ reasonCode: 'MAXIMUM', params: { limit: 50 } });
  });

  it("v2: answers the query of the reference's 400 example with that example", async () => {
    const example = loadBundle('v2').components.examples.ValidationErrorList;
    const res = await call('/v2/verifications/?pageSize=80&statuses=PENDING');
    expect(res).toEqual({ status: 400, body: example.value });
  });

  it('partner: the Error body names every offending field', async () => {
    const res = await call('/verifications', {
      method: 'POST',
      body: JSON.stringify({
        redirectUrl: 'https://partner.example.com/done',
        timeToExpiry: 4,
        reason: 'r'.repeat(201),
      }),
    });
    expect(res.status).toBe(400);
    partnerDoc.expectValid('Error', res.body);
    expect(res.body.message).toMatch(/externalUserId/);
    expect(res.body.message).toMatch(/timeToExpiry/);
    expect(res.body.message).toMatch(/reason/);
  });

  it('partner: comma-separated filters are split and each value checked', async () => {
    expect((await call('/verifications?status=inReview,completed&limit=5')).status).toBe(200);
    const bad = await call('/verifications?status=inReview,pending');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/status/);
    expect((await call('/users?isShareholder=maybe')).status).toBe(400);
  });

  it.each([
    ['malformed JSON', { body: '{"externalUserId":', headers: { 'Content-Type': 'application/json' } }, 400, /JSON/],
    ['an empty JSON body', { body: '', headers: { 'Content-Type': 'application/json' } }, 400, /body/],
    [
      'a wrong content type',
      { body: 'externalUserId=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      415,
      /application\/json/,
    ],
    ['a body over 1 MiB', { body: JSON.stringify({ reason: 'x'.repeat(1024 * 1024) }) }, 413, /1 MiB/],
  ] as const)('answers %s with a clear error in the documented shape', async (_name, init, status, message) => {
    const res = await call('/verifications', { method: 'POST', ...init });
    expect(res.status).toBe(status);
    partnerDoc.expectValid('Error', res.body);
    expect(res.body.message).toMatch(message);
  });

  it('answers an unknown route with 404 in the shape of the API the path belongs to', async () => {
    const partner = await call('/no-such-thing');
    expect(partner.status).toBe(404);
    partnerDoc.expectValid('Error', partner.body);
    expect(await call('/v2/verifications')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND_ERROR' } });
    expect((await call('/v2/verifications/', { method: 'DELETE' })).status).toBe(404);
  });
});

describe('v2 reads', () => {
  it('gets a seeded session and answers 404 NOT_FOUND_ERROR for an unknown id', async () => {
    const res = await call('/v2/verifications/6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('APPROVED');
    expect(await call('/v2/verifications/00000000-0000-4000-8000-000000000000')).toEqual({
      status: 404,
      body: { statusCode: 404, code: 'NOT_FOUND_ERROR', message: 'Not found' },
    });
  });

  it('filters by statuses, id, external id and an inclusive created range, pages and counts', async () => {
    const all = await call('/v2/verifications/?pageSize=50');
    expect(all.body.count).toBe(all.body.items.length);
    expect(all.body.count).toBeGreaterThanOrEqual(4);
    const created = all.body.items.map((i: { createdAt: string }) => i.createdAt);
    expect(created).toEqual([...created].sort().reverse());

    const decided = await call('/v2/verifications/?statuses=APPROVED&statuses=DECLINED');
    expect(decided.body.items.map((i: { status: string }) => i.status).sort()).toEqual(['APPROVED', 'DECLINED']);

    const one = all.body.items[1];
    expect((await call(`/v2/verifications/?id=${one.id}`)).body).toEqual({ items: [one], count: 1 });
    expect((await call(`/v2/verifications/?externalId=${one.externalId}`)).body.count).toBe(1);
    const exact = `createdFrom=${encodeURIComponent(one.createdAt)}&createdTo=${encodeURIComponent(one.createdAt)}`;
    expect((await call(`/v2/verifications/?${exact}`)).body.items.map((i: { id: string }) => i.id)).toEqual([one.id]);

    const page1 = await call('/v2/verifications/?pageSize=2&page=1');
    expect(page1.body.items).toEqual(all.body.items.slice(2, 4));
    expect(page1.body.count).toBe(all.body.count);
  });
});
