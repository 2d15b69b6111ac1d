// A client polling the sandbox sees every change at once: a GET read again
// answers the same JSON text while nothing has changed, and the change as
// soon as one is made. Each test reads, changes the state one way, and reads
// again: through the partner API, time alone and the in-process state. (A
// change through the control API is read back after every move of
// sandbox-lifecycle-table; a delivery's outcome, in sandbox-webhooks; a
// rotated key, in sandbox-wait-for-webhook.)
import { describe, expect, it } from 'vitest';
import { useServedSandbox } from './helpers/served-sandbox.js';

const served = useServedSandbox();
const { call } = served;

let phone = 0;
async function create(timeToExpiry = 60): Promise<string> {
  phone += 1;
  const { status, text, body } = await call('POST', '/verifications', {
    externalUserId: `7c3e9a10-5b2d-4f8e-9a61-${String(phone).padStart(12, '0')}`,
    redirectUrl: 'https://shop.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+4915190${String(phone).padStart(6, '0')}`, isVerified: false }],
    requirements: [{ type: 'document' }],
    timeToExpiry,
  });
  expect(status, text).toBe(201);
  return body.id;
}
const statusOf = async (id: string) => (await call('GET', `/verifications/${id}`)).body.status;

describe('a GET read again answers the state as it is', () => {
  it('sends the same bytes again while nothing changed', async () => {
    const id = await create();
    const [first, second] = [await call('GET', `/verifications/${id}`), await call('GET', `/verifications/${id}`)];
    expect([second.status, second.text]).toEqual([first.status, first.text]);
    expect(first.body).toMatchObject({ id, status: 'created' });
  });

  it('shows a change made through the partner API, in lists as well as records', async () => {
    const id = await create();
    const before = (await call('GET', '/verifications?limit=50')).body;
    expect(before.verifications.map((v: { id: string }) => v.id)).toContain(id);
    const later = await create();
    const after = (await call('GET', '/verifications?limit=50')).body;
    expect(after.count).toBe(before.count + 1);
    expect(after.verifications[0].id).toBe(later);
  });

  it('shows an expiry that only time brought (the clock moved in process, no request changed anything)', async () => {
    const id = await create(5);
    expect(await statusOf(id)).toBe('created');
    served.sandbox.clock.advance(6);
    expect(await statusOf(id)).toBe('expired');
  });

  it('shows a change made through the in-process state', async () => {
    const v2List = async () =>
      (
        await call('GET', '/v2/verifications/?pageSize=50', undefined, {
          authorization: `Bearer ${served.sandbox.accessToken}`,
        })
      ).body;
    const before = await v2List();
    served.sandbox.v2.create({ externalId: 'cache-in-process', country: 'DE', phoneNo: '+4915199999999' });
    const after = await v2List();
    expect(after.count).toBe(before.count + 1);
    expect(after.items.map((s: { externalId: string }) => s.externalId)).toContain('cache-in-process');
  });

  it('answers HEAD as GET without a body, and an unknown id 404 each time it is read', async () => {
    const id = await create();
    const head = await call('HEAD', `/verifications/${id}`);
    expect([head.status, head.text]).toEqual([200, '']);
    const missing = '/verifications/00000000-0000-4000-8000-000000000000';
    expect((await call('GET', missing)).status).toBe(404);
    expect((await call('GET', missing)).status).toBe(404);
  });
});
