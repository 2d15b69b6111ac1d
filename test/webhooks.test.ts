// @verification-service/contracts/webhooks: signatures against independently computed vectors, every way a signature or
// a key list can be wrong, and parsing of the documented webhooks and what the service may add (hostile arguments are
// in test/webhooks-untrusted-input.test.ts; the runtime rule, node:crypto or Web Crypto, in
// test/webhook-checks.test.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isKnownWebhookEvent,
  parseWebhookEvent,
  signatureProblem,
  verifyWebhookRequest,
  verifyWebhookRequestBody,
  signWebhookPayload,
  signWebhookPayloadAsync,
  verifyWebhookSignature,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../src/webhooks/index.js';
import { documentedWebhookExamples } from '../src/webhooks/examples.js';

// Vectors computed outside this code (shared with the runtime tests): RFC 4231
// test case 2, and openssl (`printf '%s' BODY | openssl dgst -sha256 -hmac KEY`) for the others.
const VECTORS: { body: string; key: string; signature: string }[] = JSON.parse(
  readFileSync(new URL('./fixtures/webhook-vectors.json', import.meta.url), 'utf8'),
);
const bytes = (s: string) => new TextEncoder().encode(s);
const { body, key, signature } = VECTORS[1];
const examples = documentedWebhookExamples();
const user = examples.get('user.created')!;
const updated = examples.get('verification.updated')!;
/** The value as JSON text, signed with `key`: what parseWebhookEvent is given. */
const signed = (value: unknown) => {
  const raw = JSON.stringify(value);
  return [raw, signWebhookPayload(raw, key)] as const;
};
const parseSigned = (value: unknown) => parseWebhookEvent(...signed(value), key);
/** A webhook delivery of `text`, with X-SIGNATURE `sig` unless it is undefined. */
const post = (text: string, sig?: string) =>
  new Request('http://receiver.test/webhooks', {
    method: 'POST',
    body: text,
    headers: sig === undefined ? {} : { 'X-SIGNATURE': sig },
  });
const signedRequest = (text: string, sig = signWebhookPayload(text, key)) => post(text, sig);
/** What `fn` threw; fails the test when it throws nothing. */
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as WebhookPayloadError;
  }
  throw new Error('not refused');
};

describe('signWebhookPayload and signWebhookPayloadAsync', () => {
  it.each(VECTORS)('sign and verify $key as the independent vector says, on node:crypto and Web Crypto', async (v) => {
    expect(verifyWebhookSignature(v.body, v.signature, v.key)).toBe(true);
    expect(verifyWebhookSignature(bytes(v.body), v.signature, v.key)).toBe(true);
    expect(signWebhookPayload(v.body, v.key)).toBe(v.signature);
    expect(signWebhookPayload(bytes(v.body), v.key)).toBe(v.signature);
    expect(signWebhookPayload(Buffer.from(v.body), v.key)).toBe(v.signature);
    expect(await signWebhookPayloadAsync(v.body, v.key)).toBe(v.signature);
    expect(await signWebhookPayloadAsync(bytes(v.body), v.key)).toBe(v.signature);
    expect(await signWebhookPayloadAsync(bytes(v.body).buffer, v.key)).toBe(v.signature);
    const shared = new Uint8Array(new SharedArrayBuffer(bytes(v.body).length));
    shared.set(bytes(v.body));
    expect(await signWebhookPayloadAsync(shared, v.key)).toBe(v.signature);
  });

  it('signs each body with the key it is given, keys alternating and concurrent', async () => {
    const [a, b] = VECTORS;
    const signed = await Promise.all([a, b, a, b, a].map((v) => signWebhookPayloadAsync(v.body, v.key)));
    expect(signed).toEqual([a, b, a, b, a].map((v) => v.signature));
    expect(await signWebhookPayloadAsync(a.body, b.key)).toBe(signWebhookPayload(a.body, b.key));
  });

  it('refuse a missing key or a body that is not a string or bytes, the asynchronous one by rejecting', async () => {
    expect(() => signWebhookPayload(body, '')).toThrow(TypeError);
    expect(() => signWebhookPayload({ a: 1 } as unknown as string, key)).toThrow(
      /rawBody must be a string, Uint8Array, ArrayBuffer or DataView/,
    );
    await expect(signWebhookPayloadAsync(body, '')).rejects.toThrow(
      /signWebhookPayloadAsync: authKey must be a non-empty string/,
    );
    await expect(signWebhookPayloadAsync({ a: 1 } as unknown as string, key)).rejects.toThrow(TypeError);
  });
});

describe('verifyWebhookSignature', () => {
  it('reads a key list once per call: a list answering otherwise when read again is judged by its first answer', async () => {
    // The key on the first read of its entry, a number after: a second read would refuse the HMAC what the first check let through.
    const readOnce = () => {
      let reads = 0;
      return Object.defineProperty([undefined], 0, { get: () => (reads++ === 0 ? key : 1) }) as unknown as string[];
    };
    expect(signatureProblem(body, signature, readOnce())).toBeNull();
    expect(
      signatureProblem(
        body,
        signature.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        readOnce(),
      ),
    ).toBe('mismatch');
    const [text, sig] = signed(user);
    expect(parseWebhookEvent(text, sig, readOnce()).eventType).toBe('user.created');
    expect((await verifyWebhookRequest(post(text, sig), readOnce())).eventType).toBe('user.created');
  });
});

describe('additions the service may make (P37, P38) and bodies as runtimes hand them over', () => {
  it('returns a correctly signed webhook of an unknown event type as an UnknownWebhookEvent, also through verifyWebhookRequest', async () => {
    const added = { ...user, eventType: 'company.created', dataType: 'company', data: { companyId: 'c-1' } };
    const event = parseSigned(added);
    expect(event).toEqual(added);
    expect(isKnownWebhookEvent(event)).toBe(false);
    expect(await verifyWebhookRequest(signedRequest(JSON.stringify(added)), key)).toEqual(added);
    expect(isKnownWebhookEvent(parseSigned(user))).toBe(true);
  });

  it('accepts a new value in a documented list: a tenth verification status, an estimatedAge, a requirement type', () => {
    const event = parseSigned({ ...updated, data: { ...(updated.data as object), status: 'onHold', userId: null } });
    expect(event.eventType).toBe('verification.updated');
    expect((event.data as { status: string }).status).toBe('onHold');
    // A value that is wrong, not new, is still refused: a status must be a string.
    expect(() => parseSigned({ ...updated, data: { ...(updated.data as object), status: 7, userId: null } })).toThrow(
      /status must be string/,
    );
    // A new value in other documented lists too: estimatedAge, a requirement type.
    const userUpdated = examples.get('user.updated')!;
    const withAge = (estimatedAge: unknown) => ({
      ...userUpdated,
      data: { ...(userUpdated.data as object), estimatedAge },
    });
    expect(parseSigned(withAge('over40')).eventType).toBe('user.updated');
    // estimatedAge may also be null (P8); a value of another type is still refused.
    expect(() => parseSigned(withAge(30))).toThrow(/estimatedAge/);
    const selfie = { ...updated, data: { ...(updated.data as object), requirements: [{ type: 'selfie' }] } };
    expect(parseSigned(selfie).eventType).toBe('verification.updated');
  });

  it('verifyWebhookRequest rejects with the errors parseWebhookEvent throws', async () => {
    const text = JSON.stringify(user);
    await expect(
      verifyWebhookRequest(signedRequest(text, signWebhookPayload(text, 'sbx_other')), key),
    ).rejects.toMatchObject({ name: 'WebhookSignatureError', problem: 'mismatch' });
    await expect(verifyWebhookRequest(post(text), key)).rejects.toMatchObject({ problem: 'missing' });
    const broken = JSON.stringify({ ...user, eventId: undefined });
    await expect(verifyWebhookRequest(signedRequest(broken), key)).rejects.toBeInstanceOf(WebhookPayloadError);
    const used = signedRequest(text);
    await used.text();
    await expect(verifyWebhookRequest(used, key)).rejects.toThrow(/cannot read the webhook body/);
    await expect(verifyWebhookRequest({} as Request, key)).rejects.toBeInstanceOf(TypeError);
  });

  it('verifies the signature before parsing, and a refused verified body keeps its text; an unverified one none', async () => {
    const notJson = '{"eventId": "cut off';
    // A wrong signature on a body that is not JSON: the signature is what is refused.
    expect(() => parseWebhookEvent(notJson, signWebhookPayload(notJson, 'sbx_other'), key)).toThrow(
      WebhookSignatureError,
    );
    await expect(
      verifyWebhookRequest(signedRequest(notJson, signWebhookPayload(notJson, 'sbx_other')), key),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
    const notWebhook = JSON.stringify({ hello: 'world' });
    for (const text of [notJson, notWebhook]) {
      const err = refusal(() => parseWebhookEvent(bytes(text), signWebhookPayload(text, key), key));
      expect(err).toBeInstanceOf(WebhookPayloadError);
      expect(err.verifiedBody).toBe(text);
      await expect(verifyWebhookRequest(signedRequest(text), key)).rejects.toMatchObject({ verifiedBody: text });
    }
    // Bytes that are not UTF-8 are kept as far as they read.
    const latin1 = Uint8Array.of(0x7b, 0xe9, 0x7d);
    expect(refusal(() => parseWebhookEvent(latin1, signWebhookPayload(latin1, key), key)).verifiedBody).toBe(
      '{\uFFFD}',
    );
    const used = signedRequest(notWebhook);
    await used.text();
    await expect(verifyWebhookRequest(used, key)).rejects.toMatchObject({ verifiedBody: undefined });
    expect(refusal(() => parseWebhookEvent({} as unknown as string, signature, key)).verifiedBody).toBeUndefined();
  });
});

describe('verifyWebhookRequestBody (verifies without parsing)', () => {
  const [text, sig] = signed(user);

  it('resolves to the body as received when X-SIGNATURE proves it, under any key of a list', async () => {
    expect(await verifyWebhookRequestBody(post(text, sig), key)).toBe(text);
    expect(await verifyWebhookRequestBody(post(text, sig), ['sbx_new_key', key])).toBe(text);
    // Not parsed, not checked: a signed body that is no webhook comes back as it is.
    expect(await verifyWebhookRequestBody(signedRequest('not json'), key)).toBe('not json');
  });

  it('resolves to null for a missing, wrong or re-serialized signature, or no key', async () => {
    expect(await verifyWebhookRequestBody(post(text), key)).toBeNull();
    expect(await verifyWebhookRequestBody(post(text, sig.toUpperCase()), key)).toBeNull();
    expect(await verifyWebhookRequestBody(post(JSON.stringify(JSON.parse(text), null, 2), sig), key)).toBeNull();
    expect(await verifyWebhookRequestBody(post(text, sig), 'sbx_other')).toBeNull();
    expect(await verifyWebhookRequestBody(post(text, sig), [])).toBeNull();
  });

  it("rejects with a TypeError for something other than a Request, and with the runtime's error for a body already read", async () => {
    await expect(verifyWebhookRequestBody({} as Request, key)).rejects.toThrow(
      /verifyWebhookRequestBody: request must be a Web Request/,
    );
    const used = post(text, sig);
    await used.text();
    await expect(verifyWebhookRequestBody(used, key)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('parseWebhookEvent', () => {
  it('refuses a bad signature with WebhookSignatureError, saying why', () => {
    const [raw, sig] = signed(user);
    const refused = (s: unknown, k: string | string[] = key) => refusal(() => parseWebhookEvent(raw, s, k));
    expect(refused(undefined)).toMatchObject({ name: 'WebhookSignatureError', problem: 'missing' });
    expect(refused('ABC')).toMatchObject({ problem: 'malformed' });
    expect(refused(sig, 'sbx_wrong')).toMatchObject({ problem: 'mismatch' });
    expect(refused(sig, [])).toMatchObject({ problem: 'no-key' });
    expect(refused(sig, 'sbx_wrong')).toBeInstanceOf(WebhookSignatureError);
    expect(() => parseWebhookEvent(`${raw}\n`, sig, key)).toThrow(/changed or re-serialized/);
  });

  it('refuses a correctly signed body that is not a webhook of the contract', () => {
    const shareholder = examples.get('shareholder.verified')!;
    const holder = shareholder.data as object;
    const onHold = { ...(updated.data as object), status: 'onHold' };
    const USER = 'e7c41a9d-3f5b-4d82-b6e0-9a1f2c7d8b53';
    const cases: [string, unknown, RegExp][] = [
      ['a user envelope carrying verification.created', { ...user, eventType: 'verification.created' }, /dataType/],
      ['a verification envelope with user data', { ...examples.get('verification.created')!, data: user.data }, /data/],
      ['an unknown type without an eventId', { ...user, eventType: 'user.exploded', eventId: undefined }, /eventId/],
      ['an unknown type without data', { ...user, eventType: 'user.exploded', data: 'x' }, /data must be an object/],
      ['a known event type with an unknown dataType', { ...user, dataType: 'company' }, /dataType/],
      ['a new status with a userId only completed has', { ...updated, data: { ...onHold, userId: USER } }, /userId/],
      ['a shareholder that is not one', { ...shareholder, data: { ...holder, isShareholder: false } }, /isShareholder/],
      ['an eventId that is not a uuid', { ...user, eventId: 'evt-1' }, /eventId/],
      ['a missing createdAt', { ...user, createdAt: undefined }, /createdAt/],
      ['an array', [user], /must be a JSON object/],
    ];
    for (const [name, value, message] of cases) {
      expect(() => parseSigned(value), name).toThrow(WebhookPayloadError);
      expect(() => parseSigned(value), name).toThrow(message);
    }
  });

  it('lists every issue with its path', () => {
    const err = refusal(() => parseSigned({ ...user, dataType: 'verification', eventId: 'x' }));
    expect(err).toBeInstanceOf(WebhookPayloadError);
    expect(err.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['/dataType', '/eventId']));
  });
});
