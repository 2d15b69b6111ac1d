// The partner lifecycle driven over HTTP, as an integrator would: the typed
// partner client against the sandbox, the control API acting as end user,
// reviewer and time. Every answer is checked against the documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from '../src/partner.js';
import { createV2Client } from '../src/v2.js';
import type { WebhookEvent } from '../src/webhooks/events.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { NEW_USER_SEQUENCE } from './helpers/sequences.js';

let sandbox: Sandbox;
let partner: PartnerClient;
const events: { event: WebhookEvent }[] = [];

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, validateResponses: true, onWebhook: (event) => events.push({ event }) });
  partner = createPartnerClient({ baseUrl: sandbox.url, authKey: sandbox.authKey });
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

async function control(path: string, body?: unknown, method = 'POST') {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    // Control POSTs and PUTs carry the JSON type even without a body (S16).
    headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const phone = (n: number) => `+49151${String(10_000_000 + n)}`;
const externalUserId = (n: number) => `5a0f7c1e-2b4d-4e8a-9c3f-${String(n).padStart(12, '0')}`;

async function create(n: number, extra: object = {}) {
  const { data, response } = await partner.POST('/verifications', {
    body: {
      externalUserId: externalUserId(n),
      redirectUrl: 'https://partner.example.com/kyc/done',
      phoneNumbers: [{ phoneNumber: phone(n), isVerified: true }],
      requirements: [{ type: 'document' }],
      ...extra,
    },
  });
  expect(response.status).toBe(201);
  return data!;
}

const eventsSince = (mark: number) => events.slice(mark).map((e) => e.event.eventType);

describe('the documented sequences', () => {
  it('new user: created, opened, completed with a new user, then name and phone updates', async () => {
    const mark = events.length;
    const created = await create(1, { phoneNumbers: [{ phoneNumber: phone(1), isVerified: false }] });
    expect(created).toMatchObject({ status: 'created' });
    expect(created).not.toHaveProperty('updatedAt');
    expect(created.url).toMatch(/token=/);
    // openapi-fetch drops properties typed exactly `null` from answer types,
    // so `result` is read untyped here.
    expect(created.collectedRequirements.every((r) => (r as { result?: unknown }).result === null)).toBe(true);
    expect((await control(`/verifications/${created.id}/open`, {})).body.status).toBe('started');
    const done = await control(`/verifications/${created.id}/scan`, { outcome: 'pass' });
    expect(done.body.status).toBe('completed');
    expect(done.body.userId).toEqual(expect.any(String));
    await control(`/verifications/${created.id}/name`, { firstName: 'Marta', lastName: 'Nowakowska' });
    await control(`/verifications/${created.id}/phone-verification`, { phoneNumber: phone(1) });
    expect(eventsSince(mark)).toEqual([...NEW_USER_SEQUENCE]);
    const user = await partner.GET('/users/{userId}', { params: { path: { userId: done.body.userId } } });
    expect(user.data?.externalUsers.map((e) => e.id)).toEqual([externalUserId(1)]);
    const history = await partner.GET('/verifications/{verificationId}/webhooks', {
      params: { path: { verificationId: created.id } },
    });
    expect(history.data?.count).toBe(3);
  });

  it('merge: a second verification with the same phone number merges into the user', async () => {
    const first = await create(2);
    await control(`/verifications/${first.id}/open`, {});
    const firstDone = await control(`/verifications/${first.id}/scan`, { outcome: 'pass' });
    const mark = events.length;
    const second = await create(2, { externalUserId: externalUserId(102) });
    await control(`/verifications/${second.id}/open`, {});
    const done = await control(`/verifications/${second.id}/scan`, { outcome: 'pass' });
    expect(done.body.userId).toBe(firstDone.body.userId);
    expect(eventsSince(mark)).toEqual([
      'verification.created',
      'verification.updated',
      'verification.updated',
      'user.merged',
    ]);
    const user = await partner.GET('/users/{userId}', { params: { path: { userId: done.body.userId } } });
    expect(user.data?.externalUsers.map((e) => e.id).sort()).toEqual([externalUserId(2), externalUserId(102)].sort());
  });

  it('manual review: in review, a duplicate create is refused with 409, the reviewer accepts', async () => {
    const mark = events.length;
    const v = await create(3);
    await control(`/verifications/${v.id}/open`, {});
    expect((await control(`/verifications/${v.id}/scan`, { outcome: 'review' })).body.status).toBe('inReview');
    const duplicate = await partner.POST('/verifications', {
      body: {
        externalUserId: externalUserId(3),
        redirectUrl: 'https://partner.example.com/kyc/done',
        phoneNumbers: [{ phoneNumber: phone(3), isVerified: true }],
      },
    });
    expect(duplicate.response.status).toBe(409);
    expect(duplicate.error?.message).toEqual(expect.any(String));
    expect((await control(`/verifications/${v.id}/review/accept`)).body.status).toBe('completed');
    expect(eventsSince(mark)).toEqual([
      'verification.created',
      'verification.updated',
      'verification.updated',
      'verification.updated',
      'user.created',
    ]);
  });
});

describe('rules of create, expiry and revert', () => {
  it('closes an open verification for the same phone number when a new one is created', async () => {
    const old = await create(4);
    const fresh = await create(4, { externalUserId: externalUserId(104) });
    const read = await partner.GET('/verifications/{verificationId}', { params: { path: { verificationId: old.id } } });
    expect(read.data?.status).toBe('closed');
    expect(fresh.status).toBe('created');
  });

  it('expires at validTo when the sandbox clock passes it', async () => {
    const v = await create(5, { timeToExpiry: 5 });
    expect(Date.parse(v.validTo) - Date.parse(v.createdAt)).toBe(5 * 60_000);
    expect((await control('/clock/advance', { minutes: 6 })).status).toBe(200);
    const read = await partner.GET('/verifications/{verificationId}', { params: { path: { verificationId: v.id } } });
    expect(read.data?.status).toBe('expired');
  });

  it('reverts a completed verification, deleting a user left with no external user', async () => {
    const v = await create(6);
    await control(`/verifications/${v.id}/open`, {});
    const done = await control(`/verifications/${v.id}/scan`, { outcome: 'pass' });
    const mark = events.length;
    const reverted = await partner.POST('/verifications/revert', {
      body: { verificationId: v.id, author: 'ops@partner.example.com' },
    });
    expect(reverted.data).toEqual({ id: v.id });
    expect(eventsSince(mark)).toEqual(['user.deleted', 'verification.updated']);
    const read = await partner.GET('/verifications/{verificationId}', { params: { path: { verificationId: v.id } } });
    expect(read.data).toMatchObject({ status: 'reverted', userId: null, previousUserId: done.body.userId });
    expect(
      (await partner.GET('/users/{userId}', { params: { path: { userId: done.body.userId } } })).response.status,
    ).toBe(404);
    const again = await partner.POST('/verifications/revert', {
      body: { verificationId: v.id, author: 'ops@partner.example.com' },
    });
    expect(again.response.status).toBe(409);
  });
});

describe('users, shares, batch links and lists', () => {
  it('marks a shareholder, sends shareholder.verified on completion, filters users by isShareholder', async () => {
    const v = await create(7);
    await control(`/verifications/${v.id}/open`, {});
    const done = await control(`/verifications/${v.id}/scan`, { outcome: 'pass' });
    expect((await control(`/users/${done.body.userId}/shares`, { sharesNumber: 120 }, 'PUT')).body).toEqual({
      isShareholder: true,
      sharesNumber: 120,
    });
    const shares = await partner.GET('/users/{userId}/shares', { params: { path: { userId: done.body.userId } } });
    expect(shares.data).toEqual({ isShareholder: true, sharesNumber: 120 });
    const holders = await partner.GET('/users', { params: { query: { isShareholder: true } } });
    expect(holders.data?.users.map((u) => u.id)).toContain(done.body.userId);
    const mark = events.length;
    const next = await create(7, { externalUserId: externalUserId(107) });
    await control(`/verifications/${next.id}/open`, {});
    await control(`/verifications/${next.id}/scan`, { outcome: 'pass' });
    expect(eventsSince(mark).slice(-2)).toEqual(['user.merged', 'shareholder.verified']);
  });

  it('links external users in a batch, answering the four lists', async () => {
    const v = await create(8);
    await control(`/verifications/${v.id}/open`, {});
    await control(`/verifications/${v.id}/scan`, { outcome: 'pass' });
    const { data, response } = await partner.POST('/users/external-users', {
      body: {
        externalUsers: [
          { phoneNumber: phone(8), externalUserId: externalUserId(208) },
          { phoneNumber: '+4915199999999', externalUserId: externalUserId(209) },
          { phoneNumber: '0151-not-e164', externalUserId: externalUserId(210) },
          { phoneNumber: phone(8), externalUserId: externalUserId(8) },
        ],
      },
    });
    expect(response.status).toBe(201);
    expect(data?.externalUsersWithSuccess.map((e) => e.externalUserId)).toEqual([externalUserId(208)]);
    expect(data?.unknownPhoneNumbers).toEqual(['+4915199999999']);
    expect(data?.invalidPhoneNumbers).toEqual(['0151-not-e164']);
    expect(data?.duplicatedExternalUserIds).toEqual([externalUserId(8)]);
  });

  it('lists verifications with comma-separated filters, datetimeField, paging and a total count', async () => {
    const all = await partner.GET('/verifications', { params: { query: { limit: 50 } } });
    expect(all.data!.count).toBe(all.data!.verifications.length);
    const some = await partner.GET('/verifications', {
      params: { query: { status: ['completed', 'closed'], limit: 2, page: 0 } },
    });
    expect(some.data!.verifications.length).toBeLessThanOrEqual(2);
    expect(some.data!.verifications.every((v) => ['completed', 'closed'].includes(v.status))).toBe(true);
    const completedOrClosed = all.data!.verifications.filter((v) => ['completed', 'closed'].includes(v.status)).length;
    expect(some.data!.count).toBe(completedOrClosed);
    const byPhone = await partner.GET('/verifications', { params: { query: { phoneNumber: [phone(2)] } } });
    expect(byPhone.data!.count).toBe(2);
    const future = await partner.GET('/verifications', {
      params: { query: { datetimeField: 'validTo', from: new Date(Date.now() + 365 * 86400_000).toISOString() } },
    });
    expect(future.data!.count).toBe(0);
  });
});

describe('v2 sessions from the control API', () => {
  it('creates a v2 session that the v2 API lists and gets', async () => {
    const created = await control('/v2/verifications', {
      externalId: 'signup-90001',
      country: 'PL',
      phoneNo: '+48601234567',
    });
    expect(created.status).toBe(201);
    const v2 = createV2Client({ baseUrl: sandbox.url, accessToken: sandbox.accessToken });
    const got = await v2.GET('/v2/verifications/{id}', { params: { path: { id: created.body.id } } });
    expect(got.data).toMatchObject({ externalId: 'signup-90001', country: 'PL', status: 'CREATED' });
    const listed = await v2.GET('/v2/verifications/', { params: { query: { externalId: 'signup-90001' } } });
    expect(listed.data?.count).toBe(1);
  });

  it('refuses an unknown control query parameter and resets to the seed', async () => {
    expect((await control('/clock?verbose=1', undefined, 'GET')).status).toBe(400);
    expect((await control('/reset')).status).toBe(204);
    const list = await partner.GET('/verifications', {});
    expect(list.data?.count).toBe(0);
  });
});
