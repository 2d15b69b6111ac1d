// The sandbox surfaces a client's query serialisation mistakes (DECISIONS
// S15): an unknown parameter, a comma-separated filter sent repeated, bracket
// style, a repeated filter sent comma-separated. Each is a 400 in the error
// shape of its API that names the parameter and the form it expects; the
// documented forms keep working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { validatorFor } from './helpers/openapi.js';

let sandbox: Sandbox;
const v2Doc = validatorFor('v2');
const partnerDoc = validatorFor('partner');
const accessToken = 'v2_query_token_4b1d';

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, accessToken, validateResponses: true });
  sandbox.partner.seed();
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

const get = async (path: string) => {
  const headers: Record<string, string> = path.startsWith('/v2')
    ? { Authorization: `Bearer ${accessToken}` }
    : { 'X-Auth-Key': sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' };
  const res = await fetch(`${sandbox.url}${path}`, { headers });
  return { status: res.status, body: await res.json() };
};

describe('partner API', () => {
  it('refuses a comma-separated filter sent repeated, naming the parameter and the comma form', async () => {
    const res = await get('/verifications?status=created&status=completed');
    expect(res.status).toBe(400);
    partnerDoc.expectValid('Error', res.body);
    expect(res.body.message).toBe(
      'status is sent 2 times; it is a comma-separated list: send status=VALUE1,VALUE2, once',
    );
    const users = await get('/users?phoneNumber=%2B4915100000001&phoneNumber=%2B4915100000002');
    expect(users.status).toBe(400);
    expect(users.body.message).toMatch(/^phoneNumber is sent 2 times.*phoneNumber=VALUE1,VALUE2/);
  });

  it('refuses bracket style and unknown parameters, naming what the operation takes', async () => {
    const bracket = await get('/verifications?status[]=created');
    expect(bracket.status).toBe(400);
    expect(bracket.body.message).toBe('status[] is bracket style; send status=VALUE1,VALUE2, once');
    const unknown = await get('/verifications?statuses=created');
    expect(unknown.status).toBe(400);
    partnerDoc.expectValid('Error', unknown.body);
    expect(unknown.body.message).toMatch(
      /^statuses is not a parameter of this operation \(it takes: page, limit, .*status/,
    );
    // Also where the operation takes no query at all.
    expect(await get('/partners?verbose=1')).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^verbose .*it takes: none/) },
    });
  });

  it('keeps the documented comma-separated form working', async () => {
    const all = await get('/verifications?limit=50');
    const both = await get('/verifications?status=created,completed&limit=50');
    expect(both.status).toBe(200);
    const expected = all.body.verifications.filter((v: { status: string }) =>
      ['created', 'completed'].includes(v.status),
    );
    expect(both.body.count).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
  });
});

describe('v2 API', () => {
  const details = (body: { details: { field: string; reasonCode: string; params: Record<string, unknown> }[] }) =>
    body.details;

  it('refuses bracket style with a VALIDATION_ERROR detail naming the repeated form', async () => {
    const res = await get('/v2/verifications/?statuses[]=APPROVED&statuses[]=DECLINED');
    expect(res.status).toBe(400);
    v2Doc.expectValid('ValidationError', res.body);
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
    const comma = await get('/v2/verifications/?statuses=APPROVED,DECLINED');
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
    const unknown = await get('/v2/verifications/?status=APPROVED&limit=5');
    expect(unknown.status).toBe(400);
    v2Doc.expectValid('ValidationError', unknown.body);
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
    const twice = await get('/v2/verifications/?pageSize=5&pageSize=6');
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

  it('keeps statuses repeated working', async () => {
    const res = await get('/v2/verifications/?statuses=APPROVED&statuses=DECLINED');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { status: string }) => i.status).sort()).toEqual(['APPROVED', 'DECLINED']);
  });
});
