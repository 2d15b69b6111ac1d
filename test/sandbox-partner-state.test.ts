// The sandbox's partner state engine, without HTTP: the documented lifecycle,
// event sequences, revert rules, lists and webhook histories, with every
// returned object and emitted webhook checked against the partner document.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../generated/types/partner.js';
import { SandboxClock } from '../src/sandbox/common/clock.js';
import { SandboxError, type EmittedEvent } from '../src/sandbox/partner/api.js';
import { PartnerState } from '../src/sandbox/partner/state.js';
import { pointer, validatorFor } from './helpers/openapi.js';
import { NEW_USER_SEQUENCE } from './helpers/sequences.js';

type S = components['schemas'];

const START = Date.parse('2026-03-14T09:00:00.000Z');
const PHONE = '+4915112345678';
const OTHER_PHONE = '+31612345678';
const EXT_A = '3b1f8e2a-6c4d-4f0e-9a7b-5d2c8e1f4a90';
const EXT_B = '8e4c1a7d-2b9f-4d36-a0e5-6c3f9b1d7a42';
const REDIRECT = 'https://app.northwind-mobility.example/verification/done';

const partnerDoc = validatorFor('partner');

/** Asserts a value against the response schema the operation declares for a status. */
function expectResponse(path: string, method: string, status: string, value: unknown) {
  const validate = partnerDoc.at(pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'));
  expect(validate(value), partnerDoc.errors(validate)).toBe(true);
}

let clock: SandboxClock;
let state: PartnerState;
let events: EmittedEvent[];

const eventTypes = () => events.map((e) => e.event.eventType);
/** The verification status a webhook carries, undefined for user and shareholder webhooks. */
const statusOf = (e: EmittedEvent) => (e.event.dataType === 'verification' ? e.event.data.status : undefined);
const advance = (minutes: number) => clock.advance(minutes);
const create = (overrides: Partial<S['VerificationCreate']> = {}) => {
  const created = state.createVerification({
    phoneNumbers: [{ phoneNumber: PHONE, isVerified: false }],
    externalUserId: EXT_A,
    redirectUrl: REDIRECT,
    ...overrides,
  });
  expectResponse('/verifications', 'post', '201', created);
  return created;
};
const get = (id: string) => {
  const v = state.getVerification(id);
  expectResponse('/verifications/{verificationId}', 'get', '200', v);
  return v;
};
const getUser = (id: string) => {
  const u = state.getUser(id);
  expectResponse('/users/{userId}', 'get', '200', u);
  return u;
};
/** Runs an action, then answers the events it emitted. */
const emittedBy = (action: () => unknown) => {
  const before = events.length;
  action();
  return events.slice(before);
};
const refusal = (action: () => unknown): SandboxError => {
  try {
    action();
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return e as SandboxError;
  }
  throw new Error('expected a SandboxError');
};
/** Drives a fresh verification to `completed` and returns it. */
const completeOne = (overrides: Partial<S['VerificationCreate']> = {}, name = { firstName: 'Lena', lastName: 'Hoffmann' }) => {
  const { id } = create(overrides);
  state.openLink(id);
  advance(3);
  return state.scan(id, { outcome: 'pass', document: name });
};

beforeEach(() => {
  clock = new SandboxClock(() => new Date(START));
  events = [];
  state = new PartnerState({
    clock,
    authKey: 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8',
    publicUrl: 'http://127.0.0.1:4020/',
    onEvent: (e) => events.push(e),
  });
});

afterEach(() => {
  // Every webhook of every test, against the document's envelope union.
  for (const { event } of events) partnerDoc.expectValid('WebhookEvent', event);
});

describe('create verification (operation 5)', () => {
  it('answers status created, one pending entry per requirement, validTo = now + 10080 min, no updatedAt', () => {
    const created = create({
      requirements: [{ type: 'firstAndLastName' }, { type: 'dateOfBirth' }, { type: 'document' }, { type: 'phoneNumbers' }],
      metadata: { orderId: 'NW-2026-004817' },
    });
    expect(created.status).toBe('created');
    expect(created).not.toHaveProperty('updatedAt');
    expect(created.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:4020/s/${created.id}\\?token=[\\w-]{20,}$`));
    expect(state.verificationIdForToken(new URL(created.url).searchParams.get('token')!)).toBe(created.id);
    expect(created.collectedRequirements).toEqual([
      { type: 'firstAndLastName', result: null, verified: false },
      { type: 'dateOfBirth', result: null, verified: false },
      { type: 'document', result: null, verified: false },
      { type: 'phoneNumbers', result: null },
    ]);
    expect(created.createdAt).toBe('2026-03-14T09:00:00.000Z');
    expect(created.validTo).toBe('2026-03-21T09:00:00.000Z');
    expect(eventTypes()).toEqual(['verification.created']);
    expect(events[0]).toMatchObject({ verificationId: created.id, event: { dataType: 'verification', data: { verificationId: created.id, status: 'created' } } });
    expect(get(created.id).updatedAt).toBe(created.createdAt);
  });

  it('takes timeToExpiry in minutes', () => {
    expect(create({ timeToExpiry: 90 }).validTo).toBe('2026-03-14T10:30:00.000Z');
  });

  it('maps the deprecated fields onto phoneNumbers and requirements and echoes them', () => {
    const created = create({ phoneNumbers: undefined, phoneNumber: PHONE, isPhoneNumberVerified: true, requireFirstAndLastName: true });
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
    state.openLink(second);
    const third = emittedBy(() => create({ phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: true }, { phoneNumber: PHONE, isVerified: false }] }));
    expect(third.map((e) => [e.event.eventType, e.verificationId, statusOf(e)])).toEqual([
      ['verification.updated', otherPhone.id, 'closed'],
      ['verification.updated', second, 'closed'],
      ['verification.created', expect.any(String), 'created'],
    ]);
    expect([first.id, second, otherPhone.id].map((id) => get(id).status)).toEqual(['closed', 'closed', 'closed']);
  });

  it('answers 409 while one is inReview for the same phone number and externalUserId', () => {
    const inReview = create();
    state.openLink(inReview.id);
    state.scan(inReview.id, { outcome: 'review' });
    const emitted = emittedBy(() => expect(refusal(() => create()).status).toBe(409));
    expect(emitted).toEqual([]);
    expect(get(inReview.id).status).toBe('inReview');
    // Another partner account on the same phone is not blocked, and an in-review session is not "open".
    create({ externalUserId: EXT_B });
    expect(get(inReview.id).status).toBe('inReview');
  });
});

describe('documented event sequences', () => {
  it('new user: created; opened; completed + user.created; name entered: user.updated; phone verified: user.updated', () => {
    const { id } = create({ metadata: { channel: 'mobile-app' } });
    state.openLink(id, { deviceId: 'dev_4f9a2c7e1b' });
    const done = state.scan(id, { outcome: 'pass', estimatedAge: 'over30' });
    expect(done.status).toBe('completed');
    const userId = done.userId!;
    state.enterName(id, { firstName: 'Lena', lastName: 'Hoffmann-Schulz' });
    state.verifyPhone(id);
    expect(eventTypes()).toEqual([...NEW_USER_SEQUENCE]);
    expect(events.map(statusOf)).toEqual(['created', 'started', 'completed', undefined, undefined, undefined]);
    expect(events[2].event.data).toMatchObject({ userId });
    expect(events[1].event.data).not.toHaveProperty('userId');

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
    expectResponse('/verification/{verificationId}/user-activities', 'get', '200', state.userActivities(id));
    expect(state.userActivities(id).activities.map((a) => a.activity)).toEqual(['startSession']);
    const linked = state.userLinkedByDevice(userId);
    expectResponse('/users/{userId}/linked-by-device', 'get', '200', linked);
    expect(linked.linkedUsersByDevice).toEqual([{ deviceId: 'dev_4f9a2c7e1b', users: [{ userId }] }]);
    const fingerprints = state.userFingerprints(userId, {});
    expectResponse('/users/{userId}/fingerprints', 'get', '200', fingerprints);
    expect(fingerprints.count).toBe(1);
    expect(fingerprints.fingerprints[0].events[0].data).toMatchObject({ verificationId: id, deviceId: 'dev_4f9a2c7e1b' });
  });

  it('merge: created; opened; completed + user.merged into the user with the same phone number', () => {
    const first = completeOne();
    const userId = first.userId!;
    events = [];
    const { id } = create({ externalUserId: EXT_B });
    state.openLink(id, { deviceId: 'dev_second' });
    const done = state.scan(id, { outcome: 'pass' });
    expect(eventTypes()).toEqual(['verification.created', 'verification.updated', 'verification.updated', 'user.merged']);
    expect(done.userId).toBe(userId);
    expect(events[3]).toMatchObject({ userId, event: { data: { userId } } });
    const user = getUser(userId);
    expect(user.externalUsers.map((e) => e.id)).toEqual([EXT_A, EXT_B]);
    expect(user.documents).toHaveLength(2);
    expect(state.listUsers({}).count).toBe(1);
  });

  it('a shareholder is announced with shareholder.verified on every completion', () => {
    const userId = completeOne().userId!;
    expectResponse('/users/{userId}/shares', 'get', '200', state.userShares(userId));
    expect(state.userShares(userId)).toEqual({ isShareholder: false, sharesNumber: 0 });
    expect(state.markShareholder(userId, { sharesNumber: 250 })).toEqual({ isShareholder: true, sharesNumber: 250 });
    events = [];
    completeOne({ externalUserId: EXT_B });
    expect(eventTypes()).toEqual(['verification.created', 'verification.updated', 'verification.updated', 'user.merged', 'shareholder.verified']);
    expect(events[4]).toMatchObject({ userId, event: { dataType: 'shareholder', data: { userId, isShareholder: true, externalUserIds: [EXT_A, EXT_B] } } });
    expect(refusal(() => state.markShareholder(userId, { sharesNumber: 2.5 })).status).toBe(400);
  });

  it('manual review: created; opened; review needed; accepted + user.created', () => {
    const { id } = create();
    state.openLink(id);
    expect(state.scan(id, { outcome: 'review' })).toMatchObject({ status: 'inReview', userId: null });
    const reviewed = state.acceptReview(id);
    expect(eventTypes()).toEqual(['verification.created', 'verification.updated', 'verification.updated', 'verification.updated', 'user.created']);
    expect(events.slice(0, 4).map(statusOf)).toEqual(['created', 'started', 'inReview', 'completed']);
    expect(reviewed).toMatchObject({ status: 'completed' });
    getUser(reviewed.userId!);
    expect(refusal(() => state.acceptReview(id)).status).toBe(409);
  });

  it('waits for the name and date of birth it requires, then completes', () => {
    const { id } = create({ requirements: [{ type: 'firstAndLastName' }, { type: 'dateOfBirth' }, { type: 'document' }] });
    state.openLink(id);
    expect(state.scan(id, { outcome: 'pass', document: { firstName: 'Lena', lastName: 'Hoffmann', dateOfBirth: '1991-07-23' } }).status).toBe('waitingForUserInput');
    expect(state.enterName(id, { firstName: 'Lena', lastName: 'Hoffmann' }).status).toBe('waitingForUserInput');
    const done = state.enterDateOfBirth(id, { dateOfBirth: '1991-07-23' });
    expect(done.status).toBe('completed');
    expect(done.collectedRequirements).toEqual([
      { type: 'firstAndLastName', result: { firstName: 'Lena', lastName: 'Hoffmann' }, verified: true },
      { type: 'dateOfBirth', result: { dateOfBirth: '1991-07-23' }, verified: true },
      { type: 'document', result: expect.objectContaining({ type: 'Passport', firstName: 'Lena', dateOfBirth: '1991-07-23' }), verified: true },
    ]);
    expect(eventTypes()).toEqual(['verification.created', 'verification.updated', 'verification.updated', 'verification.updated', 'user.created']);
    expect(getUser(done.userId!)).toMatchObject({ dateOfBirth: '1991-07-23', estimatedAge: 'over30' });
  });

  it('a failed scan declines and creates no user', () => {
    const { id } = create();
    state.openLink(id);
    expect(state.scan(id, { outcome: 'fail' })).toMatchObject({ status: 'declined', userId: null });
    expect(state.listUsers({}).count).toBe(0);
    expect(refusal(() => state.scan(id, { outcome: 'pass' })).status).toBe(409);
    expect(refusal(() => state.enterName(id, { firstName: 'A', lastName: 'B' })).status).toBe(409);
  });

  it('refuses a scan before the link is opened, and bad input with 400', () => {
    const { id } = create();
    expect(refusal(() => state.scan(id, { outcome: 'pass' })).status).toBe(409);
    state.openLink(id);
    expect(refusal(() => state.enterDateOfBirth(id, { dateOfBirth: '23.07.1991' })).status).toBe(400);
    expect(refusal(() => state.verifyPhone(id, '0151 1234')).status).toBe(400);
  });
});

describe('expiry', () => {
  it('expires created, started and waiting verifications when validTo is reached, with the time of validTo', () => {
    const created = create({ timeToExpiry: 60 });
    const started = create({ timeToExpiry: 60, phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }] });
    state.openLink(started.id);
    const waiting = create({ timeToExpiry: 60, phoneNumbers: [{ phoneNumber: '+48601234567', isVerified: false }], requirements: [{ type: 'dateOfBirth' }] });
    state.openLink(waiting.id);
    state.scan(waiting.id, { outcome: 'pass' });
    const completed = completeOne({ timeToExpiry: 60, phoneNumbers: [{ phoneNumber: '+353851234567', isVerified: false }] });
    advance(56); // 09:59
    expect(get(created.id).status).toBe('created');
    events = [];
    advance(2);
    for (const id of [created.id, started.id, waiting.id]) {
      expect(get(id)).toMatchObject({ status: 'expired', updatedAt: '2026-03-14T10:00:00.000Z' });
    }
    expect(get(completed.id).status).toBe('completed');
    expect(eventTypes()).toEqual(['verification.updated', 'verification.updated', 'verification.updated']);
    expect(events.every((e) => e.event.createdAt === '2026-03-14T10:00:00.000Z' && statusOf(e) === 'expired')).toBe(true);
    expect(refusal(() => state.openLink(created.id)).status).toBe(409);
  });

  it('expire() ends a session now; finished sessions cannot expire', () => {
    const { id } = create();
    advance(10);
    const expired = state.expire(id);
    expect(expired).toMatchObject({ status: 'expired', validTo: '2026-03-14T09:10:00.000Z', updatedAt: '2026-03-14T09:10:00.000Z' });
    expect(refusal(() => state.expire(id)).status).toBe(409);
    expect(refusal(() => state.expire('no-such-id')).status).toBe(404);
  });
});

describe('revert verification (operation 6)', () => {
  it('rule 1: refuses with 409 outside completed, or waitingForUserInput with an ID scan required', () => {
    const created = create();
    expect(refusal(() => state.revertVerification({ verificationId: created.id, author: 'fraud-team' })).status).toBe(409);
    state.openLink(created.id);
    state.scan(created.id, { outcome: 'review' });
    expect(refusal(() => state.revertVerification({ verificationId: created.id, author: 'fraud-team' })).status).toBe(409);

    const noDocument = create({ phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }], requirements: [{ type: 'dateOfBirth' }] });
    state.openLink(noDocument.id);
    state.scan(noDocument.id, { outcome: 'pass' });
    expect(get(noDocument.id).status).toBe('waitingForUserInput');
    expect(refusal(() => state.revertVerification({ verificationId: noDocument.id, author: 'fraud-team' })).status).toBe(409);
    expect(refusal(() => state.revertVerification({ verificationId: 'no-such-id', author: 'fraud-team' })).status).toBe(404);
  });

  it('rule 1: reverts a waitingForUserInput verification that requires an ID scan', () => {
    const { id } = create({ requirements: [{ type: 'document' }, { type: 'firstAndLastName' }] });
    state.openLink(id);
    state.scan(id, { outcome: 'pass' });
    const emitted = emittedBy(() => expect(state.revertVerification({ verificationId: id, author: 'fraud-team' })).toEqual({ id }));
    expect(emitted.map((e) => e.event.eventType)).toEqual(['verification.updated']);
    const reverted = get(id);
    // No user held its data yet, so there is no previous user to name (DECISIONS P9).
    expect(reverted).toMatchObject({ status: 'reverted', userId: null, previousUserId: null });
    expect(emitted[0].event.data).toMatchObject({ status: 'reverted', previousUserId: null });
  });

  it('rules 3 and 4: the last linked externalUserId gone, the user is deleted (user.deleted), then verification.updated', () => {
    const done = completeOne();
    const userId = done.userId!;
    const emitted = emittedBy(() => {
      const result = state.revertVerification({ verificationId: done.id, author: 'fraud-team:m.kowalski' });
      expectResponse('/verifications/revert', 'post', '200', result);
    });
    expect(emitted.map((e) => [e.event.eventType, e.userId ?? e.verificationId])).toEqual([
      ['user.deleted', userId],
      ['verification.updated', done.id],
    ]);
    expect(get(done.id)).toMatchObject({ status: 'reverted', userId: null, previousUserId: userId });
    expect(refusal(() => state.getUser(userId)).status).toBe(404);
    expect(state.listVerifications({ userId: [userId] }).count).toBe(0);
    expect(refusal(() => state.revertVerification({ verificationId: done.id, author: 'x' })).status).toBe(409);
  });

  it('rule 2: detaches only data no other completed verification provides; the user stays while an externalUserId is linked', () => {
    const first = completeOne({}, { firstName: 'Lena', lastName: 'Hoffmann' });
    const userId = first.userId!;
    // Same phone and name, another partner account, plus a second phone number.
    const second = completeOne(
      { externalUserId: EXT_B, phoneNumbers: [{ phoneNumber: PHONE, isVerified: false }, { phoneNumber: OTHER_PHONE, isVerified: true }] },
      { firstName: 'Lena', lastName: 'Hoffmann' },
    );
    expect(second.userId).toBe(userId);
    state.enterName(second.id, { firstName: 'Lena', lastName: 'Berg' });
    const emitted = emittedBy(() => state.revertVerification({ verificationId: second.id, author: 'fraud-team' }));
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
    const result = state.createExternalUsers({
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
      externalUsersWithSuccess: [{ externalUserId: EXT_C, phoneNumber: PHONE, partnerUserId: userId }],
      invalidPhoneNumbers: ['+49 151 1234'],
      unknownPhoneNumbers: ['+4930123456'],
      duplicatedExternalUserIds: [EXT_A, EXT_C],
    });
    expect(getUser(userId).externalUsers.map((e) => e.id)).toEqual([EXT_A, EXT_C]);
    expect(state.listUsers({ externalUserId: [EXT_C] }).users.map((u) => u.id)).toEqual([userId]);
  });
});

describe('partner and auth keys', () => {
  it('starts with the given key active; rotation answers the new active key and the previous one inactive', () => {
    const first = state.listAuthKeys({});
    expectResponse('/auth-keys', 'get', '200', first);
    expect(first.authKeys).toEqual([expect.objectContaining({ key: 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8', active: true })]);
    advance(1);
    const rotated = state.rotateAuthKey();
    expectResponse('/auth-keys', 'post', '201', rotated);
    expect(rotated.count).toBe(2);
    expect(rotated.authKeys.map((k) => k.active)).toEqual([true, false]);
    expect(rotated.authKeys[1]).toMatchObject({ key: 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8', updatedAt: '2026-03-14T09:01:00.000Z' });
    expect(state.activeAuthKey()).toBe(rotated.authKeys[0].key);
    expect(state.activeAuthKey()).not.toBe('sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8');
    expect(state.listAuthKeys({ limit: 1 })).toMatchObject({ count: 2, authKeys: [{ active: true }] });
    state.reset();
    expect(state.activeAuthKey()).toBe('sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8');
  });

  it('keeps the partner and its webhook address', () => {
    expectResponse('/partners', 'get', '200', state.getPartner());
    expect(state.webhookTarget()).toBeUndefined();
    const updated = state.updatePartner({ webhookUrl: 'https://api.northwind-mobility.example/hooks/identity' });
    expectResponse('/partners', 'put', '200', updated);
    expect(state.webhookTarget()).toBe('https://api.northwind-mobility.example/hooks/identity');
  });
});

describe('lists', () => {
  let ids: string[];
  beforeEach(() => {
    // Five verifications, one minute apart, on different phones.
    ids = [];
    const phones = ['+4915110000001', '+4915110000002', '+4915110000003', '+4915110000004', '+4915110000005'];
    for (const [i, phoneNumber] of phones.entries()) {
      ids.push(create({ phoneNumbers: [{ phoneNumber, isVerified: false }], externalUserId: i % 2 ? EXT_B : EXT_A, timeToExpiry: 60 * (i + 1) }).id);
      advance(1);
    }
    state.openLink(ids[1]);
    state.scan(ids[1], { outcome: 'pass' });
  });

  const list = (q: Parameters<PartnerState['listVerifications']>[0]) => {
    const answer = state.listVerifications(q);
    expectResponse('/verifications', 'get', '200', answer);
    return answer;
  };

  it('filters by phone number, externalUserId, userId and status (arrays: any of)', () => {
    expect(list({ phoneNumber: ['+4915110000001', '+4915110000003'] }).count).toBe(2);
    expect(list({ externalUserId: [EXT_B] }).verifications.map((v) => v.id).sort()).toEqual([ids[1], ids[3]].sort());
    const userId = get(ids[1]).userId!;
    expect(list({ userId: [userId, 'unknown'] }).verifications.map((v) => v.id)).toEqual([ids[1]]);
    expect(list({ status: ['completed', 'started'] }).count).toBe(1);
    expect(list({ status: ['created'], externalUserId: [EXT_A] }).count).toBe(3);
    expect(list({}).count).toBe(5);
  });

  it('bounds from (exclusive) and to (inclusive) on the field named by datetimeField, createdAt when absent', () => {
    // Created 09:00 to 09:04: "more recent than" 09:01 leaves it out, "not older than" 09:03 keeps it (DECISIONS S1).
    expect(list({ from: '2026-03-14T09:01:00.000Z', to: '2026-03-14T09:03:00.000Z' }).verifications.map((v) => v.id)).toEqual([ids[3], ids[2]]);
    expect(list({ datetimeField: 'createdAt', from: '2026-03-14T09:03:59.999Z' }).verifications.map((v) => v.id)).toEqual([ids[4]]);
    expect(list({ datetimeField: 'createdAt', from: '2026-03-14T09:04:00.000Z' }).count).toBe(0);
    expect(list({ to: '2026-03-14T09:00:00.000Z' }).verifications.map((v) => v.id)).toEqual([ids[0]]);
    // validTo = createdAt + 60·(i+1) minutes
    expect(list({ datetimeField: 'validTo', to: '2026-03-14T11:01:00.000Z' }).verifications.map((v) => v.id).sort()).toEqual([ids[0], ids[1]].sort());
    // Only ids[1] changed after 09:04 (opened and completed at 09:05).
    expect(list({ datetimeField: 'updatedAt', from: '2026-03-14T09:04:59.999Z' }).verifications.map((v) => v.id)).toEqual([ids[1]]);
    expect(list({ datetimeField: 'updatedAt', from: '2026-03-14T09:05:00.000Z' }).count).toBe(0);
  });

  it('pages with page/limit (defaults 0/15), limit 0 answers only the count', () => {
    expect(list({}).verifications).toHaveLength(5);
    const pages = [0, 1, 2].map((page) => list({ page, limit: 2 }));
    expect(pages.map((p) => p.verifications.length)).toEqual([2, 2, 1]);
    expect(pages.every((p) => p.count === 5)).toBe(true);
    expect(new Set(pages.flatMap((p) => p.verifications.map((v) => v.id))).size).toBe(5);
    expect(list({ limit: 0 })).toEqual({ verifications: [], count: 5 });
    expect(list({ page: 9 })).toEqual({ verifications: [], count: 5 });
  });

  it('filters users by phone number, externalUserId, id and isShareholder', () => {
    const userId = get(ids[1]).userId!;
    const users = (q: Parameters<PartnerState['listUsers']>[0]) => {
      const answer = state.listUsers(q);
      expectResponse('/users', 'get', '200', answer);
      return answer.users.map((u) => u.id);
    };
    expect(users({ phoneNumber: ['+4915110000002'] })).toEqual([userId]);
    expect(users({ phoneNumber: ['+4915110000001'] })).toEqual([]);
    expect(users({ externalUserId: [EXT_B] })).toEqual([userId]);
    expect(users({ id: [userId] })).toEqual([userId]);
    expect(users({ isShareholder: true })).toEqual([]);
    state.markShareholder(userId, { sharesNumber: 10 });
    expect(users({ isShareholder: true })).toEqual([userId]);
    expect(users({ isShareholder: false })).toEqual([]);
    expect(state.listUsers({ limit: 0 })).toEqual({ users: [], count: 1 });
  });

  it('answers 404 for unknown ids', () => {
    for (const call of [
      () => state.getVerification('nope'),
      () => state.userActivities('nope'),
      () => state.verificationLinkedByDevice('nope'),
      () => state.verificationWebhooks('nope', {}),
      () => state.getUser('nope'),
      () => state.userLinkedByDevice('nope'),
      () => state.userShares('nope'),
      () => state.userFingerprints('nope', {}),
      () => state.userWebhooks('nope', {}),
      () => state.openLink('nope'),
      () => state.markShareholder('nope', { sharesNumber: 1 }),
    ]) {
      expect(refusal(call).status).toBe(404);
    }
  });
});

describe('webhook histories', () => {
  it('keeps one record per webhook, in the verification or user history, updated in place by deliveries', () => {
    // Characters of every UTF-8 length: the history gives back each payload exactly as it was emitted.
    const metadata = { orderId: 'NW-2026-004817', customer: 'Zoë Ångström, 李小龍 🐉' };
    const done = completeOne({ metadata });
    const userId = done.userId!;
    const vHistory = state.verificationWebhooks(done.id, {});
    expectResponse('/verifications/{verificationId}/webhooks', 'get', '200', vHistory);
    expect(vHistory.count).toBe(3);
    expect(vHistory.webhooks.map((r) => r.payload.eventType)).toEqual(['verification.created', 'verification.updated', 'verification.updated']);
    expect(vHistory.webhooks[0]).toMatchObject({ type: 'verification', verificationId: done.id, success: false, retryAt: null, metadata });
    expect(vHistory.webhooks.map((r) => r.payload)).toEqual(events.filter((e) => e.verificationId).map((e) => e.event));
    expect(JSON.stringify(vHistory.webhooks[0].payload)).toContain('Zoë Ångström, 李小龍 🐉');

    const uHistory = state.userWebhooks(userId, {});
    expectResponse('/users/{userId}/webhooks', 'get', '200', uHistory);
    expect(uHistory.webhooks.map((r) => [r.type, r.userId, r.payload.eventType])).toEqual([['user', userId, 'user.created']]);

    const eventId = vHistory.webhooks[1].payload.eventId;
    advance(1);
    expect(state.recordDelivery(eventId, { success: false, retryAt: '2026-03-14T09:19:00.000Z', reason: 'Request failed with status code 503' })).toBe(true);
    advance(15);
    state.recordDelivery(eventId, { success: true, retryAt: null });
    const after = state.verificationWebhooks(done.id, {});
    expectResponse('/verifications/{verificationId}/webhooks', 'get', '200', after);
    expect(after.count).toBe(3);
    expect(after.webhooks[1]).toMatchObject({ id: vHistory.webhooks[1].id, success: true, retryAt: null, createdAt: vHistory.webhooks[1].createdAt, updatedAt: '2026-03-14T09:19:00.000Z' });
    expect(after.webhooks[1]).not.toHaveProperty('reason');
    expect(state.recordDelivery('00000000-0000-4000-8000-000000000000', { success: true, retryAt: null })).toBe(false);
    expect(state.verificationWebhooks(done.id, { limit: 1, page: 2 }).webhooks.map((r) => r.id)).toEqual([vHistory.webhooks[2].id]);
  });
});

describe('devices, reset and seed', () => {
  it('links verifications opened from the same device', () => {
    const a = create();
    state.openLink(a.id, { deviceId: 'dev_shared' });
    const b = create({ phoneNumbers: [{ phoneNumber: OTHER_PHONE, isVerified: false }] });
    state.openLink(b.id, { deviceId: 'dev_shared' });
    state.openLink(b.id);
    const linked = state.verificationLinkedByDevice(b.id);
    expectResponse('/verifications/{verificationId}/linked-by-device', 'get', '200', linked);
    expect(linked.linkedVerificationsByDevice[0]).toEqual({ deviceId: 'dev_shared', verifications: [{ verificationId: a.id }, { verificationId: b.id }] });
    expect(linked.linkedVerificationsByDevice).toHaveLength(2);
    expect(state.userActivities(b.id).activities).toHaveLength(2);
  });

  it('reset empties the state; seed builds a valid data set through the lifecycle', () => {
    completeOne();
    state.reset();
    expect(state.listVerifications({}).count).toBe(0);
    events = [];
    const seeded = state.seed();
    expect(seeded.verificationIds).toHaveLength(6);
    const statuses = seeded.verificationIds.map((id) => get(id).status);
    expect(statuses).toEqual(['completed', 'completed', 'inReview', 'waitingForUserInput', 'declined', 'created']);
    for (const id of seeded.userIds) {
      const user = getUser(id);
      expect(user.externalUsers).toHaveLength(2);
      expect(state.userShares(id)).toEqual({ isShareholder: true, sharesNumber: 250 });
      expectResponse('/users/{userId}/webhooks', 'get', '200', state.userWebhooks(id, {}));
      expectResponse('/users/{userId}/fingerprints', 'get', '200', state.userFingerprints(id, {}));
    }
    expect(eventTypes()).toContain('shareholder.verified');
    expectResponse('/verifications', 'get', '200', state.listVerifications({ limit: 50 }));
    expectResponse('/users', 'get', '200', state.listUsers({}));
    const again = state.seed();
    expect(again.userIds).toEqual(seeded.userIds);
    expect(state.listVerifications({}).count).toBe(12);
  });
});
