// The partner state engine without HTTP (test/helpers/partner-state.ts):
// revert (operation 6), the batch of external users, the partner and its auth
// keys, unknown ids, webhook histories, devices, reset and seed. (Lists:
// sandbox-lists against a plain scan; revert rules 3 and 4: arazzo.)
import { describe, expect, it } from 'vitest';
import { KEY, PHONE, OTHER_PHONE, EXT_A, EXT_B, expectResponse, usePartnerState } from './helpers/partner-state.js';

const t = usePartnerState();
const { eventTypes, advance, create, get, getUser, emittedBy, refusal, completeOne } = t;

describe('revert verification (operation 6)', () => {
  /** The status of the refusal to revert `verificationId`. */
  const revertRefused = (verificationId: string) =>
    refusal(() => t.state.revertVerification({ verificationId, author: 'fraud-team' })).status;

  it('rule 1: refuses with 409 outside completed, or waitingForUserInput with an ID scan required', () => {
    const created = create();
    expect(revertRefused(created.id)).toBe(409);
    t.state.openLink(created.id);
    t.state.scan(created.id, { outcome: 'review' });
    expect(revertRefused(created.id)).toBe(409);

    const noDocument = create({
      phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }],
      requirements: [{ type: 'dateOfBirth' }],
    });
    t.state.openLink(noDocument.id);
    t.state.scan(noDocument.id, { outcome: 'pass' });
    expect(get(noDocument.id).status).toBe('waitingForUserInput');
    expect(revertRefused(noDocument.id)).toBe(409);
    expect(revertRefused('no-such-id')).toBe(404);
  });

  it('rule 2: detaches only data no other completed verification provides; the user stays while an externalUserId is linked', () => {
    const first = completeOne({}, { firstName: 'Lena', lastName: 'Hoffmann' });
    const userId = first.userId!;
    // Same phone and name, another partner account, plus a second phone number.
    const second = completeOne(
      {
        externalUserId: EXT_B,
        phoneNumbers: [
          { phoneNumber: PHONE, isVerified: false },
          { phoneNumber: OTHER_PHONE, isVerified: true },
        ],
      },
      { firstName: 'Lena', lastName: 'Hoffmann' },
    );
    expect(second.userId).toBe(userId);
    t.state.enterName(second.id, { firstName: 'Lena', lastName: 'Berg' });
    const emitted = emittedBy(() => t.state.revertVerification({ verificationId: second.id, author: 'fraud-team' }));
    expect(emitted.map((e) => e.event.eventType)).toEqual(['verification.updated']);
    const user = getUser(userId);
    expect(user.externalUsers.map((e) => e.id)).toEqual([EXT_A]);
    expect(user.phoneNumbers.map((p) => p.phoneNumber)).toEqual([PHONE]);
    expect(user).toMatchObject({ firstName: 'Lena', lastName: 'Hoffmann' });
    expect(user.names.map((n) => n.lastName)).toEqual(['Hoffmann']);
    expect(get(second.id)).toMatchObject({ status: 'reverted', previousUserId: userId, userId: null });
  });
});

describe('batch external users (operation 16)', () => {
  it('sorts each entry into one of the four lists', () => {
    const userId = completeOne().userId!;
    const EXT_C = 'c5d8a2f1-9e47-4b30-8a6c-2f1e7d9b4c05';
    const result = t.state.createExternalUsers({
      externalUsers: [
        { phoneNumber: PHONE, externalUserId: EXT_C },
        { phoneNumber: '+49 151 1234', externalUserId: EXT_B },
        { phoneNumber: '+4930123456', externalUserId: EXT_B },
        { phoneNumber: PHONE, externalUserId: EXT_A },
        { phoneNumber: PHONE, externalUserId: EXT_C },
      ],
    });
    expectResponse('/users/external-users', 'post', '201', result);
    expect(result).toEqual({
      externalUsersWithSuccess: [{ externalUserId: EXT_C, phoneNumber: PHONE, partnerUserId: expect.any(String) }],
      invalidPhoneNumbers: ['+49 151 1234'],
      unknownPhoneNumbers: ['+4930123456'],
      duplicatedExternalUserIds: [EXT_A, EXT_C],
    });
    // `partnerUserId` is an id of the link, not of the user: nothing documents more (S3).
    const { partnerUserId } = result.externalUsersWithSuccess[0];
    expect(partnerUserId).not.toBe(userId);
    expect(t.state.listUsers({}).users.map((u) => u.id)).not.toContain(partnerUserId);
    expect(getUser(userId).externalUsers.map((e) => e.id)).toEqual([EXT_A, EXT_C]);
    expect(t.state.listUsers({ externalUserId: [EXT_C] }).users.map((u) => u.id)).toEqual([userId]);
  });
});

describe('partner and auth keys', () => {
  it('starts with the given key active; rotation answers the new active key and the previous one inactive', () => {
    const first = t.state.listAuthKeys({});
    expectResponse('/auth-keys', 'get', '200', first);
    expect(first.authKeys).toEqual([expect.objectContaining({ key: KEY, active: true })]);
    advance(1);
    const rotated = t.state.rotateAuthKey();
    expectResponse('/auth-keys', 'post', '201', rotated);
    expect(rotated.count).toBe(2);
    expect(rotated.authKeys.map((k) => k.active)).toEqual([true, false]);
    expect(rotated.authKeys[1]).toMatchObject({ key: KEY, updatedAt: '2026-03-14T09:01:00.000Z' });
    expect(t.state.activeAuthKey()).toBe(rotated.authKeys[0].key);
    expect(t.state.activeAuthKey()).not.toBe(KEY);
    expect(t.state.listAuthKeys({ limit: 1 })).toMatchObject({ count: 2, authKeys: [{ active: true }] });
    t.state.reset();
    expect(t.state.activeAuthKey()).toBe(KEY);
  });

  it('draws new random ids, session tokens and keys every time: UUIDs v4, never repeated', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const made = [t.create(), t.create({ phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }] })];
    for (const v of made) expect(v.id).toMatch(uuid);
    expect(new Set(made.map((v) => v.id)).size).toBe(2);
    expect(new Set(made.map((v) => new URL(v.url).searchParams.get('token'))).size).toBe(2);
    const keys = [t.state.rotateAuthKey(), t.state.rotateAuthKey()].map((r) => r.authKeys[0].key);
    expect(keys[0]).toMatch(/^sbx_[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });
});

describe('unknown ids', () => {
  it('answers 404 for unknown ids', () => {
    for (const call of [
      () => t.state.getVerification('nope'),
      () => t.state.userActivities('nope'),
      () => t.state.verificationLinkedByDevice('nope'),
      () => t.state.verificationWebhooks('nope', {}),
      () => t.state.getUser('nope'),
      () => t.state.userLinkedByDevice('nope'),
      () => t.state.userShares('nope'),
      () => t.state.userFingerprints('nope', {}),
      () => t.state.userWebhooks('nope', {}),
      () => t.state.openLink('nope'),
      () => t.state.markShareholder('nope', { sharesNumber: 1 }),
    ])
      expect(refusal(call).status).toBe(404);
  });
});

describe('webhook histories', () => {
  it('keeps one record per webhook, in the verification or user history, updated in place by deliveries', () => {
    // Characters of every UTF-8 length: the history gives back each payload exactly as it was emitted.
    const metadata = { orderId: 'NW-2026-004817', customer: 'Zoë Ångström, 李小龍 🐉' };
    const done = completeOne({ metadata });
    const userId = done.userId!;
    const vHistory = t.state.verificationWebhooks(done.id, {});
    expectResponse('/verifications/{verificationId}/webhooks', 'get', '200', vHistory);
    expect(vHistory.count).toBe(3);
    expect(vHistory.webhooks.map((r) => r.payload.eventType)).toEqual([
      'verification.created',
      'verification.updated',
      'verification.updated',
    ]);
    expect(vHistory.webhooks[0]).toMatchObject({
      type: 'verification',
      verificationId: done.id,
      success: false,
      retryAt: null,
      metadata,
    });
    expect(vHistory.webhooks.map((r) => r.payload)).toEqual(
      t.events.filter((e) => e.verificationId).map((e) => e.event),
    );
    expect(JSON.stringify(vHistory.webhooks[0].payload)).toContain('Zoë Ångström, 李小龍 🐉');

    const uHistory = t.state.userWebhooks(userId, {});
    expectResponse('/users/{userId}/webhooks', 'get', '200', uHistory);
    expect(uHistory.webhooks.map((r) => [r.type, r.userId, r.payload.eventType])).toEqual([
      ['user', userId, 'user.created'],
    ]);

    const eventId = vHistory.webhooks[1].payload.eventId;
    advance(1);
    expect(
      t.state.recordDelivery(eventId, {
        success: false,
        retryAt: '2026-03-14T09:19:00.000Z',
        reason: 'Request failed with status code 503',
      }),
    ).toBe(true);
    advance(15);
    t.state.recordDelivery(eventId, { success: true, retryAt: null });
    const after = t.state.verificationWebhooks(done.id, {});
    expectResponse('/verifications/{verificationId}/webhooks', 'get', '200', after);
    expect(after.count).toBe(3);
    expect(after.webhooks[1]).toMatchObject({
      id: vHistory.webhooks[1].id,
      success: true,
      retryAt: null,
      createdAt: vHistory.webhooks[1].createdAt,
      updatedAt: '2026-03-14T09:19:00.000Z',
    });
    expect(after.webhooks[1]).not.toHaveProperty('reason');
    expect(t.state.recordDelivery('00000000-0000-4000-8000-000000000000', { success: true, retryAt: null })).toBe(
      false,
    );
    expect(t.state.verificationWebhooks(done.id, { limit: 1, page: 2 }).webhooks.map((r) => r.id)).toEqual([
      vHistory.webhooks[2].id,
    ]);
  });
});

describe('devices, reset and seed', () => {
  it('links verifications opened from the same device', () => {
    const a = create();
    t.state.openLink(a.id, { deviceId: 'dev_shared' });
    const b = create({ phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }] });
    t.state.openLink(b.id, { deviceId: 'dev_shared' });
    t.state.openLink(b.id);
    const linked = t.state.verificationLinkedByDevice(b.id);
    expectResponse('/verifications/{verificationId}/linked-by-device', 'get', '200', linked);
    expect(linked.linkedVerificationsByDevice[0]).toEqual({
      deviceId: 'dev_shared',
      verifications: [{ verificationId: a.id }, { verificationId: b.id }],
    });
    expect(linked.linkedVerificationsByDevice).toHaveLength(2);
    expect(t.state.userActivities(b.id).activities).toHaveLength(2);
  });

  it('reset empties the state; seed builds a valid data set through the lifecycle', () => {
    completeOne();
    t.state.reset();
    expect(t.state.listVerifications({}).count).toBe(0);
    t.events = [];
    const seeded = t.state.seed();
    expect(seeded.verificationIds).toHaveLength(6);
    const statuses = seeded.verificationIds.map((id) => get(id).status);
    expect(statuses).toEqual(['completed', 'completed', 'inReview', 'waitingForUserInput', 'declined', 'created']);
    for (const id of seeded.userIds) {
      const user = getUser(id);
      expect(user.externalUsers).toHaveLength(2);
      expect(t.state.userShares(id)).toEqual({ isShareholder: true, sharesNumber: 250 });
      expectResponse('/users/{userId}/webhooks', 'get', '200', t.state.userWebhooks(id, {}));
      expectResponse('/users/{userId}/fingerprints', 'get', '200', t.state.userFingerprints(id, {}));
    }
    expect(eventTypes()).toContain('shareholder.verified');
    expectResponse('/verifications', 'get', '200', t.state.listVerifications({ limit: 50 }));
    expectResponse('/users', 'get', '200', t.state.listUsers({}));
    const again = t.state.seed();
    expect(again.userIds).toEqual(seeded.userIds);
    expect(t.state.listVerifications({}).count).toBe(12);
  });
});
