// The Prism mock of the partner document and the typed partner client: the
// mock enforces the key and the documented bounds, and the client sends what
// the service asks for and gets schema-valid answers.
import { describe, expect, inject, it } from 'vitest';
import { createPartnerClient } from '../../src/partner.js';
import { validatorFor } from '../helpers/openapi.js';
import { recordingFetch } from '../helpers/recording-fetch.js';

const baseUrl = inject('mockUrls').partner;
const v = validatorFor('partner');
const authKey = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
const json = { 'X-Auth-Key': authKey, 'Content-Type': 'application/json' };
const createBody = {
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
  redirectUrl: 'https://partner.example.com/kyc/done',
  phoneNumbers: [{ phoneNumber: '+4915112345678', isVerified: false }],
};

describe('partner mock (Prism)', () => {
  it('answers a call without X-Auth-Key with 401 and the error body', async () => {
    const res = await fetch(`${baseUrl}/partners`);
    expect(res.status).toBe(401);
    v.expectValid('Error', await res.json());
  });

  it('refuses values outside the documented bounds', async () => {
    for (const query of ['limit=51', 'page=-1', 'datetimeField=deletedAt', 'status=pending']) {
      const res = await fetch(`${baseUrl}/verifications?${query}`, { headers: json });
      expect(res.status, query).toBe(400);
      v.expectValid('Error', await res.json());
    }
    for (const body of [
      { ...createBody, timeToExpiry: 4 },
      { ...createBody, reason: 'r'.repeat(201) },
      { redirectUrl: createBody.redirectUrl },
    ]) {
      const res = await fetch(`${baseUrl}/verifications`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it('answers a valid create with the created verification, and the 409 on request', async () => {
    const res = await fetch(`${baseUrl}/verifications`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(createBody),
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.status).toBe('created');
    expect(created).not.toHaveProperty('updatedAt');
    const conflict = await fetch(`${baseUrl}/verifications`, {
      method: 'POST',
      headers: { ...json, Prefer: 'code=409' },
      body: JSON.stringify(createBody),
    });
    expect(conflict.status).toBe(409);
    v.expectValid('Error', await conflict.json());
  });
});

describe('createPartnerClient against the mock', () => {
  it('sends X-Auth-Key and Content-Type on every call and gets a schema-valid partner', async () => {
    const recorder = recordingFetch();
    const partner = createPartnerClient({ baseUrl, authKey, fetch: recorder.fetch });
    const { data, error } = await partner.GET('/partners');
    expect(error).toBeUndefined();
    v.expectValid('Partner', data);
    expect(recorder.requests[0].headers.get('x-auth-key')).toBe(authKey);
    expect(recorder.requests[0].headers.get('content-type')).toBe('application/json');
  });

  it('writes array filters comma-separated and gets a schema-valid page', async () => {
    const recorder = recordingFetch();
    const partner = createPartnerClient({ baseUrl, authKey, fetch: recorder.fetch });
    const { data, error } = await partner.GET('/verifications', {
      params: {
        query: {
          status: ['inReview', 'completed'],
          phoneNumber: ['+4915112345678', '+31612345678'],
          datetimeField: 'updatedAt',
          from: '2026-03-01T00:00:00Z',
          limit: 50,
        },
      },
    });
    expect(error).toBeUndefined();
    v.expectValid('VerificationList', data);
    const url = new URL(recorder.requests[0].url);
    expect(url.searchParams.get('status')).toBe('inReview,completed');
    expect(url.searchParams.get('phoneNumber')).toBe('+4915112345678,+31612345678');
    expect(url.search).toContain('status=inReview,completed');
  });

  it('creates a verification and reads one, schema-valid', async () => {
    const partner = createPartnerClient({ baseUrl, authKey });
    const created = await partner.POST('/verifications', { body: createBody });
    expect(created.response.status).toBe(201);
    v.expectValid('CreatedVerification', created.data);
    const read = await partner.GET('/verifications/{verificationId}', {
      params: { path: { verificationId: created.data!.id } },
    });
    v.expectValid('Verification', read.data);
    const activities = await partner.GET('/verification/{verificationId}/user-activities', {
      params: { path: { verificationId: created.data!.id } },
    });
    expect(activities.response.status).toBe(200);
  });

  it('gets the error body for a missing key and for an out-of-range limit', async () => {
    const partner = createPartnerClient({ baseUrl, authKey });
    const unauthorized = await partner.GET('/users', { headers: { 'X-Auth-Key': null } });
    expect(unauthorized.response.status).toBe(401);
    v.expectValid('Error', unauthorized.error);
    const bad = await partner.GET('/users', { params: { query: { limit: 51 } } });
    expect(bad.response.status).toBe(400);
    v.expectValid('Error', bad.error);
  });

  it('refuses a missing auth key at construction', () => {
    expect(() => createPartnerClient({ baseUrl, authKey: ' ' })).toThrow(/authKey must be a non-empty string/);
  });
});
