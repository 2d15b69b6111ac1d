// Phone numbers in the local sandbox, as the partner reference gives them: a
// plain string in a create body and in the verification (any form accepted
// and echoed, P17), `isVerified` required in each entry (P8), and a number
// `POST /users/external-users` cannot use reported in `invalidPhoneNumbers`,
// never refused (S3: not E.164, the form of a user's phone numbers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, validateResponses: true });
});
afterAll(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

async function post(target: string, body: unknown) {
  const res = await fetch(`${sandbox.url}${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-key': sandbox.authKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const create = (phoneNumbers: unknown[]) =>
  post('/verifications', {
    phoneNumbers,
    externalUserId: crypto.randomUUID(),
    redirectUrl: 'https://partner.example/done',
  });

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

  it('reports an external-user number that is not E.164 as invalid, and refuses nothing', async () => {
    const answer = await post('/users/external-users', {
      externalUsers: [{ phoneNumber: '0151 1234 5678', externalUserId: crypto.randomUUID() }],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ invalidPhoneNumbers: ['0151 1234 5678'], externalUsersWithSuccess: [] });
  });
});
