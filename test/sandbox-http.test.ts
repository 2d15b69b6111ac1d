// The sandbox over HTTP, every answer checked against the documents
// (validateResponses). How targets are matched: sandbox-doors-agree.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, validatorFor } from './helpers/openapi.js';
import { rawRequest } from './helpers/raw-http.js';
import { useServedSandbox } from './helpers/served-sandbox.js';

const v2 = validatorFor('v2');
const partnerDoc = validatorFor('partner');
const SEEDED_V2 = '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14';
const served = useServedSandbox();
const { call } = served;
beforeAll(() => served.sandbox.partner.seed());
/** A v2 GET with the sandbox's token. */
const v2Get = (target: string) =>
  call('GET', target, undefined, { authorization: `Bearer ${served.sandbox.accessToken}` });

describe('validation from the contract', () => {
  it('v2: one details entry per offending field, with field, reasonCode and params', async () => {
    const res = await v2Get('/v2/verifications/?pageSize=80&page=-1&statuses=PENDING&createdFrom=yesterday');
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
    const res = await v2Get('/v2/verifications/?pageSize=80&statuses=PENDING');
    expect([res.status, res.body]).toEqual([400, example.value]);
  });

  it('partner: the Error body names every offending field', async () => {
    const res = await call('POST', '/verifications', {
      redirectUrl: 'https://partner.example.com/done',
      timeToExpiry: 4,
      reason: 'r'.repeat(201),
    });
    expect(res.status).toBe(400);
    partnerDoc.expectValid('Error', res.body);
    expect(res.body.message).toMatch(/externalUserId/);
    expect(res.body.message).toMatch(/timeToExpiry/);
    expect(res.body.message).toMatch(/reason/);
  });
});

describe('v2 reads', () => {
  it('gets a seeded session and answers 404 NOT_FOUND_ERROR for an unknown id', async () => {
    const res = await v2Get(`/v2/verifications/${SEEDED_V2}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('APPROVED');
    const unknown = await v2Get('/v2/verifications/00000000-0000-4000-8000-000000000000');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { statusCode: 404, code: 'NOT_FOUND_ERROR', message: 'Not found' },
    ]);
  });

  it('filters by statuses, id, external id and an inclusive created range, pages and counts', async () => {
    const all = await v2Get('/v2/verifications/?pageSize=50');
    expect(all.body.count).toBe(all.body.items.length);
    expect(all.body.count).toBeGreaterThanOrEqual(4);
    const created = all.body.items.map((i: { createdAt: string }) => i.createdAt);
    expect(created).toEqual([...created].sort().reverse());

    const decided = await v2Get('/v2/verifications/?statuses=APPROVED&statuses=DECLINED');
    expect(decided.body.items.map((i: { status: string }) => i.status).sort()).toEqual(['APPROVED', 'DECLINED']);

    const one = all.body.items[1];
    expect((await v2Get(`/v2/verifications/?id=${one.id}`)).body).toEqual({ items: [one], count: 1 });
    expect((await v2Get(`/v2/verifications/?externalId=${one.externalId}`)).body.count).toBe(1);
    const exact = `createdFrom=${encodeURIComponent(one.createdAt)}&createdTo=${encodeURIComponent(one.createdAt)}`;
    expect((await v2Get(`/v2/verifications/?${exact}`)).body.items.map((i: { id: string }) => i.id)).toEqual([one.id]);

    const page1 = await v2Get('/v2/verifications/?pageSize=2&page=1');
    expect(page1.body.items).toEqual(all.body.items.slice(2, 4));
    expect(page1.body.count).toBe(all.body.count);
  });
});

/** Sent as written on a socket (fetch would normalize the target), with both credentials (each API reads only its own) and the partner API's type. */
const send = (method: string, target: string) =>
  rawRequest(served.port, [
    `${method} ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${served.port}`,
    `Authorization: Bearer ${served.sandbox.accessToken}`,
    `X-Auth-Key: ${served.sandbox.partner.activeAuthKey()}`,
    'Content-Type: application/json',
  ]);

describe('routing', () => {
  it('answers a target in absolute form (for proxies), whatever host it names, as a bad request target', async () => {
    for (const target of ['http://evil.example/partners', `http://127.0.0.1:${served.port}/partners`, '*']) {
      const res = await send('GET', target);
      expect(res.status, target).toBe(400);
      const body = JSON.parse(res.body);
      partnerDoc.expectValid('Error', body);
      expect(body.message, target).toMatch(/^path is not a valid request target: /);
    }
  });

  it('answers HEAD as GET without the body, with its length', async () => {
    const get = await send('GET', '/partners');
    const head = await send('HEAD', '/partners');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('query serialisation (S15), partner API (each form refused: sandbox-doors-agree)', () => {
  it('splits comma-separated filters and checks each value', async () => {
    const all = await call('GET', '/verifications?limit=50');
    const both = await call('GET', '/verifications?status=created,completed&limit=50');
    expect(both.status).toBe(200);
    const expected = all.body.verifications.filter((v: { status: string }) =>
      ['created', 'completed'].includes(v.status),
    );
    expect(both.body.count).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    expect((await call('GET', '/verifications?status=inReview,completed&limit=5')).status).toBe(200);
    const bad = await call('GET', '/verifications?status=inReview,pending');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/status/);
    expect((await call('GET', '/users?isShareholder=maybe')).status).toBe(400);
  });
});

describe('query serialisation mistakes (S15), v2 API', () => {
  const details = (body: { details: { field: string; reasonCode: string; params: Record<string, unknown> }[] }) =>
    body.details;

  it('refuses bracket style with a VALIDATION_ERROR detail naming the repeated form', async () => {
    const res = await v2Get('/v2/verifications/?statuses[]=APPROVED&statuses[]=DECLINED');
    expect(res.status).toBe(400);
    v2.expectValid('ValidationError', res.body);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect(details(res.body)).toEqual([
      {
        field: 'statuses[]',
        reasonCode: 'UNSUPPORTED_STYLE',
        params: {
          parameter: 'statuses',
          expected: 'statuses=VALUE1&statuses=VALUE2',
          message: 'is bracket style; send statuses=VALUE1&statuses=VALUE2',
        },
      },
    ]);
  });

  it('refuses statuses sent comma-separated and unknown parameters', async () => {
    const comma = await v2Get('/v2/verifications/?statuses=APPROVED,DECLINED');
    expect(comma.status).toBe(400);
    expect(details(comma.body)).toEqual([
      {
        field: 'statuses',
        reasonCode: 'UNSUPPORTED_STYLE',
        params: {
          expected: 'statuses=VALUE1&statuses=VALUE2',
          message: 'is comma-separated; send statuses=VALUE1&statuses=VALUE2',
        },
      },
    ]);
    const unknown = await v2Get('/v2/verifications/?status=APPROVED&limit=5');
    expect(unknown.status).toBe(400);
    v2.expectValid('ValidationError', unknown.body);
    expect(details(unknown.body).map((d) => [d.field, d.reasonCode])).toEqual([
      ['status', 'UNKNOWN_PARAMETER'],
      ['limit', 'UNKNOWN_PARAMETER'],
    ]);
    expect(details(unknown.body)[0].params.known).toEqual([
      'page',
      'pageSize',
      'id',
      'externalId',
      'statuses',
      'createdFrom',
      'createdTo',
    ]);
    const twice = await v2Get('/v2/verifications/?pageSize=5&pageSize=6');
    expect(details(twice.body)).toEqual([
      {
        field: 'pageSize',
        reasonCode: 'NOT_REPEATABLE',
        params: {
          count: 2,
          expected: 'pageSize=VALUE, once',
          message: 'is sent 2 times; it is a single value: send pageSize=VALUE, once',
        },
      },
    ]);
  });
});
