// The partner state engine without HTTP (test/helpers/partner-state.ts):
// creating a verification (operation 5), the documented event sequences and
// expiry. (The merge and manual review sequences over HTTP: arazzo.)
import { describe, expect, it } from 'vitest';
import { NEW_USER_SEQUENCE } from './helpers/sequences.js';
import { PHONE, OTHER_PHONE, EXT_A, EXT_B, expectResponse, usePartnerState } from './helpers/partner-state.js';

const t = usePartnerState();
const { eventTypes, statusOf, advance, create, get, getUser, emittedBy, refusal, completeOne } = t;

describe('create verification (operation 5)', () => {
  it('answers status created, one pending entry per requirement, validTo = now + 10080 min, no updatedAt', () => {
    const types = ['firstAndLastName', 'dateOfBirth', 'document', 'phoneNumbers'] as const;
    const created = create({ requirements: types.map((type) => ({ type })), metadata: { orderId: 'NW-2026-004817' } });
    expect(created.status).toBe('created');
    expect(created).not.toHaveProperty('updatedAt');
    expect(created.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:4020/s/${created.id}\\?token=[\\w-]{20,}$`));
    expect(t.state.verificationIdForToken(new URL(created.url).searchParams.get('token')!)).toBe(created.id);
    expect(created.collectedRequirements).toEqual([
      { type: 'firstAndLastName', result: null, verified: false },
      { type: 'dateOfBirth', result: null, verified: false },
      { type: 'document', result: null, verified: false },
      { type: 'phoneNumbers', result: null },
    ]);
    expect(created).toMatchObject({ createdAt: '2026-03-14T09:00:00.000Z', validTo: '2026-03-21T09:00:00.000Z' });
    expect(eventTypes()).toEqual(['verification.created']);
    expect(t.events[0]).toMatchObject({
      verificationId: created.id,
      event: { dataType: 'verification', data: { verificationId: created.id, status: 'created' } },
    });
    expect(get(created.id).updatedAt).toBe(created.createdAt);
  });

  it('maps the deprecated fields onto phoneNumbers and requirements and echoes them', () => {
    const created = create({
      phoneNumbers: undefined,
      phoneNumber: PHONE,
      isPhoneNumberVerified: true,
      requireFirstAndLastName: true,
    });
    expect(created.phoneNumbers).toEqual([{ phoneNumber: PHONE, isVerified: true }]);
    expect(created.requirements).toEqual([{ type: 'firstAndLastName' }]);
    expect(created).toMatchObject({ phoneNumber: PHONE, isPhoneNumberVerified: true, requireFirstAndLastName: true });
  });

  it('closes an open (created or started) verification for the same phone number', () => {
    const first = create();
    const otherPhone = create({ phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }] });
    let second = '';
    const emitted = emittedBy(() => (second = create({ externalUserId: EXT_B }).id));
    expect(emitted.map((e) => [e.event.eventType, e.verificationId, statusOf(e)])).toEqual([
      ['verification.updated', first.id, 'closed'],
      ['verification.created', second, 'created'],
    ]);
    t.state.openLink(second);
    const third = emittedBy(() =>
      create({
        phoneNumbers: [
          { phoneNumber: OTHER_PHONE, isVerified: true },
          { phoneNumber: PHONE, isVerified: false },
        ],
      }),
    );
    expect(third.map((e) => [e.event.eventType, e.verificationId, statusOf(e)])).toEqual([
      ['verification.updated', otherPhone.id, 'closed'],
      ['verification.updated', second, 'closed'],
      ['verification.created', expect.any(String), 'created'],
    ]);
    expect([first.id, second, otherPhone.id].map((id) => get(id).status)).toEqual(['closed', 'closed', 'closed']);
  });

  it('answers 409 while one is inReview for the same phone number and externalUserId', () => {
    const inReview = create();
    t.state.openLink(inReview.id);
    t.state.scan(inReview.id, { outcome: 'review' });
    const emitted = emittedBy(() => expect(refusal(() => create()).status).toBe(409));
    expect(emitted).toEqual([]);
    expect(get(inReview.id).status).toBe('inReview');
    // Another partner account on the same phone is not blocked, and an in-review session is not "open".
    create({ externalUserId: EXT_B });
    expect(get(inReview.id).status).toBe('inReview');
    // A review is accepted once.
    t.state.acceptReview(inReview.id);
    expect(refusal(() => t.state.acceptReview(inReview.id)).status).toBe(409);
  });
});

describe('documented event sequences', () => {
  it('new user: created; opened; completed + user.created; name entered: user.updated; phone verified: user.updated', () => {
    const { id } = create({ metadata: { channel: 'mobile-app' } });
    t.state.openLink(id, { deviceId: 'dev_4f9a2c7e1b' });
    const done = t.state.scan(id, { outcome: 'pass', estimatedAge: 'over30' });
    expect(done.status).toBe('completed');
    const userId = done.userId!;
    t.state.enterName(id, { firstName: 'Lena', lastName: 'Hoffmann-Schulz' });
    t.state.verifyPhone(id);
    expect(eventTypes()).toEqual([...NEW_USER_SEQUENCE]);
    expect(t.events.map(statusOf)).toEqual(['created', 'started', 'completed', undefined, undefined, undefined]);
    expect(t.events[2].event.data).toMatchObject({ userId });
    expect(t.events[1].event.data).not.toHaveProperty('userId');

    const user = getUser(userId);
    expect(user).toMatchObject({
      id: userId,
      firstName: 'Lena',
      lastName: 'Hoffmann-Schulz',
      estimatedAge: 'over30',
      phoneNumbers: [{ phoneNumber: PHONE, verified: true }],
      externalUsers: [{ id: EXT_A }],
    });
    expect(user.names.map((n) => n.lastName).at(-1)).toBe('Hoffmann-Schulz');
    expect(user.documents).toHaveLength(1);
    expect(get(id)).toMatchObject({ status: 'completed', userId, previousUserId: null });
    expect(get(id).phoneNumbers).toEqual([{ phoneNumber: PHONE, isVerified: true }]);
    expectResponse('/verification/{verificationId}/user-activities', 'get', '200', t.state.userActivities(id));
    expect(t.state.userActivities(id).activities.map((a) => a.activity)).toEqual(['startSession']);
    const linked = t.state.userLinkedByDevice(userId);
    expectResponse('/users/{userId}/linked-by-device', 'get', '200', linked);
    expect(linked.linkedUsersByDevice).toEqual([{ deviceId: 'dev_4f9a2c7e1b', users: [{ userId }] }]);
    const fingerprints = t.state.userFingerprints(userId, {});
    expectResponse('/users/{userId}/fingerprints', 'get', '200', fingerprints);
    expect(fingerprints.count).toBe(1);
    expect(fingerprints.fingerprints[0].events[0].data).toMatchObject({
      verificationId: id,
      deviceId: 'dev_4f9a2c7e1b',
    });
  });

  it('a shareholder is announced with shareholder.verified on every completion', () => {
    const userId = completeOne().userId!;
    expectResponse('/users/{userId}/shares', 'get', '200', t.state.userShares(userId));
    expect(t.state.userShares(userId)).toEqual({ isShareholder: false, sharesNumber: 0 });
    expect(t.state.markShareholder(userId, { sharesNumber: 250 })).toEqual({ isShareholder: true, sharesNumber: 250 });
    t.events = [];
    completeOne({ externalUserId: EXT_B });
    expect(eventTypes()).toEqual([
      'verification.created',
      'verification.updated',
      'verification.updated',
      'user.merged',
      'shareholder.verified',
    ]);
    // The second completion merged into the first user.
    expect(getUser(userId).documents).toHaveLength(2);
    expect(t.state.listUsers({}).count).toBe(1);
    expect(t.events[4]).toMatchObject({
      userId,
      event: { dataType: 'shareholder', data: { userId, isShareholder: true, externalUserIds: [EXT_A, EXT_B] } },
    });
    expect(refusal(() => t.state.markShareholder(userId, { sharesNumber: 2.5 })).status).toBe(400);
  });

  it('waits for the name and date of birth it requires, then completes', () => {
    const { id } = create({
      requirements: [{ type: 'firstAndLastName' }, { type: 'dateOfBirth' }, { type: 'document' }],
    });
    t.state.openLink(id);
    expect(
      t.state.scan(id, {
        outcome: 'pass',
        document: { firstName: 'Lena', lastName: 'Hoffmann', dateOfBirth: '1991-07-23' },
      }).status,
    ).toBe('waitingForUserInput');
    expect(t.state.enterName(id, { firstName: 'Lena', lastName: 'Hoffmann' }).status).toBe('waitingForUserInput');
    const done = t.state.enterDateOfBirth(id, { dateOfBirth: '1991-07-23' });
    expect(done.status).toBe('completed');
    expect(done.collectedRequirements).toEqual([
      { type: 'firstAndLastName', result: { firstName: 'Lena', lastName: 'Hoffmann' }, verified: true },
      { type: 'dateOfBirth', result: { dateOfBirth: '1991-07-23' }, verified: true },
      {
        type: 'document',
        result: expect.objectContaining({ type: 'Passport', firstName: 'Lena', dateOfBirth: '1991-07-23' }),
        verified: true,
      },
    ]);
    expect(eventTypes()).toEqual([
      'verification.created',
      'verification.updated',
      'verification.updated',
      'verification.updated',
      'user.created',
    ]);
    expect(getUser(done.userId!)).toMatchObject({ dateOfBirth: '1991-07-23', estimatedAge: 'over30' });
  });

  it('a failed scan declines and creates no user', () => {
    const { id } = create();
    t.state.openLink(id);
    expect(t.state.scan(id, { outcome: 'fail' })).toMatchObject({ status: 'declined', userId: null });
    expect(t.state.listUsers({}).count).toBe(0);
    expect(refusal(() => t.state.scan(id, { outcome: 'pass' })).status).toBe(409);
    expect(refusal(() => t.state.enterName(id, { firstName: 'A', lastName: 'B' })).status).toBe(409);
  });

  it('refuses a scan before the link is opened, and bad input with 400', () => {
    const { id } = create();
    expect(refusal(() => t.state.scan(id, { outcome: 'pass' })).status).toBe(409);
    t.state.openLink(id);
    expect(refusal(() => t.state.enterDateOfBirth(id, { dateOfBirth: '23.07.1991' })).status).toBe(400);
    expect(refusal(() => t.state.verifyPhone(id, '0151 1234')).status).toBe(400);
  });
});

describe('expiry', () => {
  it('expires created, started and waiting verifications when validTo is reached, with the time of validTo', () => {
    const created = create({ timeToExpiry: 60 });
    const started = create({ timeToExpiry: 60, phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }] });
    t.state.openLink(started.id);
    const waiting = create({
      timeToExpiry: 60,
      phoneNumbers: [{ phoneNumber: '+48601234567', isVerified: false }],
      requirements: [{ type: 'dateOfBirth' }],
    });
    t.state.openLink(waiting.id);
    t.state.scan(waiting.id, { outcome: 'pass' });
    const completed = completeOne({
      timeToExpiry: 60,
      phoneNumbers: [{ phoneNumber: '+353851234567', isVerified: false }],
    });
    advance(56); // 09:59
    expect(get(created.id).status).toBe('created');
    t.events = [];
    advance(2);
    for (const id of [created.id, started.id, waiting.id]) {
      expect(get(id)).toMatchObject({ status: 'expired', updatedAt: '2026-03-14T10:00:00.000Z' });
    }
    expect(get(completed.id).status).toBe('completed');
    expect(eventTypes()).toEqual(['verification.updated', 'verification.updated', 'verification.updated']);
    for (const e of t.events) expect([e.event.createdAt, statusOf(e)]).toEqual(['2026-03-14T10:00:00.000Z', 'expired']);
    expect(refusal(() => t.state.openLink(created.id)).status).toBe(409);
  });

  it('expire() ends a session now; finished sessions cannot expire', () => {
    const { id } = create();
    advance(10);
    const expired = t.state.expire(id);
    expect(expired).toMatchObject({
      status: 'expired',
      validTo: '2026-03-14T09:10:00.000Z',
      updatedAt: '2026-03-14T09:10:00.000Z',
    });
    expect(refusal(() => t.state.expire(id)).status).toBe(409);
    expect(refusal(() => t.state.expire('no-such-id')).status).toBe(404);
  });
});
