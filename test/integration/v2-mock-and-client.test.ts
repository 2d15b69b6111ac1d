// The Prism mock of the v2 document and the typed client, together: the mock
// answers as documented, and the client gets schema-valid answers from it.
import { describe, expect, inject, it } from 'vitest';
import { createPartnerClient } from '../../src/partner.js';
import { createV2Client } from '../../src/v2.js';
import { validatorFor } from '../helpers/openapi.js';
import { recordingFetch } from '../helpers/recording-fetch.js';

const baseUrl = inject('mockUrls').v2;
const v = validatorFor('v2');
const expectValid = v.expectValid;

describe('v2 mock (Prism)', () => {
  it('answers a request without a token with the documented 401 body', async () => {
    const res = await fetch(`${baseUrl}/v2/verifications/6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' });
  });

  it('answers a bad query with 400 VALIDATION_ERROR', async () => {
    const res = await fetch(`${baseUrl}/v2/verifications/?pageSize=80`, { headers: { Authorization: 'Bearer t0k3n' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expectValid('ValidationError', body);
  });

  it('selects the 404 and named examples with the Prefer header', async () => {
    const headers = { Authorization: 'Bearer t0k3n' };
    const notFound = await fetch(`${baseUrl}/v2/verifications/unknown-id`, {
      headers: { ...headers, Prefer: 'code=404' },
    });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND_ERROR', message: 'Not found' });
    const declined = await fetch(`${baseUrl}/v2/verifications/c3a9e071`, {
      headers: { ...headers, Prefer: 'example=declined' },
    });
    expect((await declined.json()).status).toBe('DECLINED');
  });

  it('does not serve the list without its trailing slash', async () => {
    const res = await fetch(`${baseUrl}/v2/verifications`, { headers: { Authorization: 'Bearer t0k3n' } });
    expect(res.status).toBe(404);
  });
});

describe('createV2Client against the mock', () => {
  it('sends the bearer token and gets a schema-valid verification', async () => {
    const recorder = recordingFetch();
    const v2 = createV2Client({ baseUrl, accessToken: 't0k3n', fetch: recorder.fetch });
    const { data, error, response } = await v2.GET('/v2/verifications/{id}', {
      params: { path: { id: '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14' } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expectValid('Verification', data);
    expect(recorder.requests[0].headers.get('authorization')).toBe('Bearer t0k3n');
    expect(new URL(recorder.requests[0].url).pathname).toBe('/v2/verifications/6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14');
  });

  it('repeats statuses once per value and gets a schema-valid page', async () => {
    const recorder = recordingFetch();
    const v2 = createV2Client({ baseUrl: `${baseUrl}/`, accessToken: 't0k3n', fetch: recorder.fetch });
    const { data, error } = await v2.GET('/v2/verifications/', {
      params: {
        query: { statuses: ['APPROVED', 'DECLINED'], page: 0, pageSize: 2, createdFrom: '2026-03-01T00:00:00.000Z' },
      },
    });
    expect(error).toBeUndefined();
    expectValid('VerificationList', data);
    const url = new URL(recorder.requests[0].url);
    expect(url.pathname).toBe('/v2/verifications/');
    expect(url.searchParams.getAll('statuses')).toEqual(['APPROVED', 'DECLINED']);
    expect(url.search).toContain('statuses=APPROVED&statuses=DECLINED');
  });

  it('gets the documented 401 when the token header is removed', async () => {
    const v2 = createV2Client({ baseUrl, accessToken: 't0k3n' });
    const { data, error, response } = await v2.GET('/v2/verifications/{id}', {
      params: { path: { id: '6f1c2b9e' } },
      headers: { Authorization: null },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error).toEqual({ statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' });
  });

  it('gets the documented 400 for an out-of-range page size', async () => {
    const v2 = createV2Client({ baseUrl, accessToken: 't0k3n' });
    const { error, response } = await v2.GET('/v2/verifications/', { params: { query: { pageSize: 51 } } });
    expect(response.status).toBe(400);
    expectValid('ValidationError', error);
  });

  it('sends extra headers along with the token', async () => {
    const recorder = recordingFetch();
    const v2 = createV2Client({
      baseUrl,
      accessToken: 't0k3n',
      fetch: recorder.fetch,
      headers: { 'X-Request-Id': 'req-7781' },
    });
    await v2.GET('/v2/verifications/', {});
    expect(recorder.requests[0].headers.get('x-request-id')).toBe('req-7781');
    expect(recorder.requests[0].headers.get('authorization')).toBe('Bearer t0k3n');
  });

  it('refuses a missing token or base URL at construction', () => {
    expect(() => createV2Client({ baseUrl, accessToken: '' })).toThrow(/accessToken must be a non-empty string/);
    expect(() => createV2Client({ baseUrl: 'localhost:4010', accessToken: 't' })).toThrow(
      /baseUrl must be an http\(s\) URL/,
    );
    // An unset variable, the usual cause: the message names the variable the sandbox prints and this API's mock.
    expect(() => createV2Client({ baseUrl: process.env.VC_UNSET_BASE_URL!, accessToken: 't' })).toThrow(
      "createV2Client: baseUrl must be an http(s) URL, not undefined: the sandbox's address (it prints V2_URL=…), \"http://127.0.0.1:4010\" for this API's mock, or the service's address",
    );
    expect(() => createPartnerClient({ baseUrl: '', authKey: 'k' })).toThrow(
      /^createPartnerClient: baseUrl must be an http\(s\) URL, not "": .*PARTNER_URL=….*"http:\/\/127\.0\.0\.1:4011"/,
    );
  });

  it('refuses a base URL ending in /v2 at construction, saying to drop it (the paths start with /v2)', () => {
    for (const given of ['http://127.0.0.1:4020/v2', 'https://api.example.com/v2/', 'https://api.example.com/V2//']) {
      expect(() => createV2Client({ baseUrl: given, accessToken: 't' })).toThrow(
        /ends in \/v2, but the paths already start with \/v2 .*drop it: baseUrl: "(http:\/\/127\.0\.0\.1:4020|https:\/\/api\.example\.com)"/,
      );
    }
    // A path that merely contains v2 is someone's mount point, not the doubled prefix.
    expect(() => createV2Client({ baseUrl: 'https://api.example.com/v2-gateway', accessToken: 't' })).not.toThrow();
    expect(() => createV2Client({ baseUrl: 'https://api.example.com/kyc', accessToken: 't' })).not.toThrow();
  });
});
