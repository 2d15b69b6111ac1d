// Phone numbers in the local sandbox, as the partner reference gives them
// (any form accepted and echoed, P17; `isVerified` required, P8), and at
// completion (S6). (A number merging into its user by default, and one that
// is not E.164 in `invalidPhoneNumbers` (S3): sandbox-partner-state.)
import { describe, expect, it } from 'vitest';
import { useServedSandbox } from './helpers/served-sandbox.js';

const { call } = useServedSandbox();
const post = (target: string, body: unknown) => call('POST', target, body);
const get = (target: string) => call('GET', target);

const create = (phoneNumbers: unknown[], extra: Record<string, unknown> = {}) =>
  post('/verifications', {
    phoneNumbers,
    externalUserId: crypto.randomUUID(),
    redirectUrl: 'https://partner.example/done',
    ...extra,
  });

let next = 4917600000000;
const freshPhone = () => `+${next++}`;

/** A verification of these numbers, opened and scanned with `outcome`: its id and the scan's answer. */
async function scanned(phoneNumbers: string[], outcome: string, extra: Record<string, unknown> = {}) {
  const { body: v } = await create(
    phoneNumbers.map((phoneNumber) => ({ phoneNumber, isVerified: true })),
    extra,
  );
  expect((await post(`/_sandbox/verifications/${v.id}/open`, {})).status).toBe(200);
  return { id: v.id as string, ...(await post(`/_sandbox/verifications/${v.id}/scan`, { outcome })) };
}

describe('phone numbers as the partner reference gives them', () => {
  it('takes a number in any form in a create body and answers it as sent', async () => {
    const answer = await create([{ phoneNumber: '0151 1234 5678', isVerified: false }]);
    expect(answer.status).toBe(201);
    expect(answer.body.phoneNumbers).toEqual([{ phoneNumber: '0151 1234 5678', isVerified: false }]);
  });

  it('refuses an entry without isVerified, naming it', async () => {
    const answer = await create([{ phoneNumber: '+4915112345678' }]);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/isVerified/);
  });
});

describe('a phone number at completion (S6)', () => {
  it('declines a session with phoneNumberOfAnotherUser, from started or waitingForUserInput, leaving the holder as it was', async () => {
    const phone = freshPhone();
    const holder = await scanned([phone], 'pass');
    const before = await get(`/users/${holder.body.userId}`);
    const fromStarted = await scanned([phone], 'phoneNumberOfAnotherUser');
    expect(fromStarted).toMatchObject({ status: 200, body: { status: 'declined', userId: null } });

    const waiting = await scanned([phone], 'pass', { requirements: [{ type: 'firstAndLastName' }] });
    expect(waiting.body.status).toBe('waitingForUserInput');
    const fromWaiting = await post(`/_sandbox/verifications/${waiting.id}/scan`, {
      outcome: 'phoneNumberOfAnotherUser',
    });
    expect(fromWaiting).toMatchObject({ status: 200, body: { status: 'declined', userId: null } });
    const after = await get(`/users/${holder.body.userId}`);
    expect([after.status, after.text]).toEqual([before.status, before.text]);
  });

  it('refuses phoneNumberOfAnotherUser with 409 while no user holds a number of the session, changing nothing', async () => {
    const refused = await scanned([freshPhone()], 'phoneNumberOfAnotherUser');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/no user holds a phone number/i);
    expect((await get(`/verifications/${refused.id}`)).body.status).toBe('started');
  });

  it('keeps a number that is not E.164 on the verification and gives the user only the E.164 ones', async () => {
    const e164 = freshPhone();
    const done = await scanned(['0151 1234 5678', e164], 'pass');
    expect(done.body.status).toBe('completed');
    expect(done.body.phoneNumbers.map((p: { phoneNumber: string }) => p.phoneNumber)).toEqual(['0151 1234 5678', e164]);
    const user = await get(`/users/${done.body.userId}`);
    expect(user.body.phoneNumbers.map((p: { phoneNumber: string }) => p.phoneNumber)).toEqual([e164]);
  });
});
