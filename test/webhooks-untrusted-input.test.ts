// The webhook helpers given what an attacker or a confused caller hands them: whatever the value, only the documented
// error classes, at once, and no byte read beyond what the value really holds.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookRequest,
  verifyWebhookRequestBody,
  verifyWebhookSignature,
  verifyWebhookSignatureAsync,
  WebhookPayloadError,
  webhookPayloadIssues,
  WebhookSignatureError,
} from '../src/webhooks/index.js';
import { documentedWebhookExamples } from '../src/webhooks/examples.js';

const key = 'sbx_untrusted_input_key';
const utf8 = (text: string) => new TextEncoder().encode(text);
const examples = documentedWebhookExamples();
const userText = JSON.stringify(examples.get('user.created'));
const userSignature = signWebhookPayload(userText, key);

describe('a body is bytes only when it is one', () => {
  // Tagged and shaped as an ArrayBuffer holding `{}`: what Object.prototype.toString calls one.
  const lookAlike = (length: number) => ({ [Symbol.toStringTag]: 'ArrayBuffer', 0: 123, 1: 125, length });
  const braces = signWebhookPayload('{}', key);

  it.each([2, 2 ** 32 - 1])(
    'refuses an object tagged ArrayBuffer claiming %i bytes without reading them: no signature matches it, parsing says it is no raw body',
    async (length) => {
      const fake = lookAlike(length) as unknown as ArrayBuffer;
      expect(Object.prototype.toString.call(fake)).toBe('[object ArrayBuffer]');
      expect(verifyWebhookSignature(fake, braces, key)).toBe(false);
      expect(await verifyWebhookSignatureAsync(fake, braces, key)).toBe(false);
      expect(() => parseWebhookEvent(fake, braces, key)).toThrow(WebhookPayloadError);
      expect(() => parseWebhookEvent(fake, braces, key)).toThrow(/must be the raw body as received/);
      expect(() => signWebhookPayload(fake, key)).toThrow(TypeError);
      // A parsed body, as a framework's JSON middleware leaves it, is no raw body either.
      expect(() => parseWebhookEvent({ parsed: true } as unknown as string, braces, key)).toThrow(
        /raw body as received/,
      );
    },
  );

  it('refuses a real view whose buffer is shadowed by a look-alike', () => {
    const shadowed = Object.defineProperty(new Uint8Array(2), 'buffer', { value: lookAlike(2 ** 32 - 1) });
    expect(verifyWebhookSignature(shadowed, braces, key)).toBe(false);
    expect(() => parseWebhookEvent(shadowed, braces, key)).toThrow(/webhook body cannot be read/);
  });

  it('reads a real buffer from another realm, a SharedArrayBuffer and a view over one, as the bytes they hold', async () => {
    const foreign = vm.runInNewContext('new Uint8Array([123, 125]).buffer') as ArrayBuffer;
    expect(foreign instanceof ArrayBuffer).toBe(false);
    expect(verifyWebhookSignature(foreign, braces, key)).toBe(true);
    const shared = new SharedArrayBuffer(utf8(userText).length);
    const view = new Uint8Array(shared);
    view.set(utf8(userText));
    expect(verifyWebhookSignature(shared as unknown as ArrayBuffer, userSignature, key)).toBe(true);
    expect(parseWebhookEvent(shared as unknown as ArrayBuffer, userSignature, key)).toEqual(JSON.parse(userText));
    expect(verifyWebhookSignature(view, userSignature, key)).toBe(true);
    expect(await verifyWebhookSignatureAsync(view, userSignature, key)).toBe(true);
    expect(parseWebhookEvent(view, userSignature, key)).toEqual(JSON.parse(userText));
  });
});

describe('collected requirements of a new type', () => {
  const updated = examples.get('verification.updated')!;
  const data = updated.data as { collectedRequirements: object[] };
  /** The example with `entries` as its collected requirements. */
  const collecting = (entries: object[]) => ({ ...updated, data: { ...data, collectedRequirements: entries } });

  it('reads a new entry for its type alone, once: nothing inside it is checked', () => {
    const reads = { type: 0, other: 0 };
    const entry = () => ({
      get type() {
        reads.type++;
        return 'selfie';
      },
      get result() {
        reads.other++;
        return 0;
      },
      get verified() {
        reads.other++;
        return 'maybe';
      },
    });
    const entries = Array.from({ length: 1000 }, entry);
    expect(webhookPayloadIssues(collecting([...data.collectedRequirements, ...entries]))).toEqual([]);
    expect(reads).toEqual({ type: 1000, other: 0 });
  });

  it('of 20,000 new entries and one broken documented one, reports the documented one only', () => {
    const added = Array.from({ length: 20_000 }, (_, i) => ({ type: 'selfie', result: i, verified: 'maybe' }));
    const broken = { type: 'dateOfBirth', result: { dateOfBirth: 19900101 }, verified: true };
    const issues = webhookPayloadIssues(collecting([...added, broken]));
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.path).toMatch(/^\/data\/collectedRequirements\/20000(\/|$)/);
    expect(webhookPayloadIssues(collecting(added))).toEqual([]);
    // An entry without a type is no requirement of any type: refused.
    const noType = { result: null, verified: false };
    expect(webhookPayloadIssues(collecting([...added, noType]))).not.toEqual([]);
  });
});

describe('a leading byte order mark', () => {
  it('is ignored alike in a string and in bytes, through every parsing function, and kept by verifyWebhookRequestBody', async () => {
    const withMark = `\uFEFF${userText}`;
    const signature = signWebhookPayload(withMark, key);
    const init = { method: 'POST', body: utf8(withMark), headers: { 'X-SIGNATURE': signature } };
    const request = () => new Request('http://receiver.test/webhooks', init);
    const event = JSON.parse(userText);
    expect(parseWebhookEvent(withMark, signature, key)).toEqual(event);
    expect(parseWebhookEvent(utf8(withMark), signature, key)).toEqual(event);
    expect(await verifyWebhookRequest(request(), key)).toEqual(event);
    // Kept in the text verifyWebhookRequestBody gives, which verifies again as it is.
    const text = await verifyWebhookRequestBody(request(), key);
    expect(text).toBe(withMark);
    expect(parseWebhookEvent(text!, signature, key)).toEqual(event);
  });
});

describe('the Request helpers reject only with the documented classes', () => {
  const throwingHeaders = (thrown: unknown) =>
    ({
      headers: {
        get: () => {
          throw thrown;
        },
      },
      arrayBuffer: async () => utf8(userText).buffer,
    }) as unknown as Request;
  const failingBody = (thrown: unknown, answer?: unknown) =>
    ({
      headers: new Headers({ 'X-SIGNATURE': userSignature }),
      arrayBuffer: async () => {
        if (answer !== undefined) return answer;
        throw thrown;
      },
    }) as unknown as Request;
  const thrownValues: [string, unknown][] = [
    ['an Error', new Error('headers')],
    ['a symbol', Symbol('headers')],
    ['a revoked Proxy', Proxy.revocable({}, {}).proxy],
  ];

  it.each(thrownValues)('%s thrown by headers.get or the body: a TypeError naming the function', async (_, thrown) => {
    for (const [name, helper, request] of [
      ['verifyWebhookRequest', verifyWebhookRequest, throwingHeaders(thrown)],
      ['verifyWebhookRequestBody', verifyWebhookRequestBody, throwingHeaders(thrown)],
      ['verifyWebhookRequestBody', verifyWebhookRequestBody, failingBody(thrown)],
    ] as const) {
      const rejection = helper(request, key);
      await expect(rejection).rejects.toBeInstanceOf(TypeError);
      await expect(rejection).rejects.toThrow(new RegExp(`^${name}: request must be a Web Request`));
      await expect(rejection).rejects.toMatchObject({ cause: thrown });
    }
    // A body that cannot be read is the payload's fault to verifyWebhookRequest.
    await expect(verifyWebhookRequest(failingBody(thrown), key)).rejects.toThrow(
      expect.objectContaining({
        name: 'WebhookPayloadError',
        message: expect.stringMatching(/^cannot read the webhook body/),
      }),
    );
  });

  it('a body read as a look-alike of bytes: refused, never read by its claimed length', async () => {
    const fake = { [Symbol.toStringTag]: 'ArrayBuffer', length: 2 ** 32 - 1 };
    await expect(verifyWebhookRequest(failingBody(null, fake), key)).rejects.toThrow(
      /cannot read the webhook body .*did not give bytes/,
    );
    expect(await verifyWebhookRequestBody(failingBody(null, fake), key)).toBeNull();
  });
});

describe('parseWebhookEvent given anything', () => {
  // structuredClone with transfer detaches: the buffer, and every view over it, then reads as nothing.
  const detached = <T extends ArrayBuffer | ArrayBufferView>(held: T = utf8(userText).buffer as T): T => {
    const buffer = ArrayBuffer.isView(held) ? held.buffer : held;
    structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
    return held;
  };
  // A value every access to which throws, itself thrown by a trap: no message can be read from it.
  const throwHostile = () => {
    throw hostile;
  };
  const hostile: object = new Proxy({}, new Proxy({}, { get: () => throwHostile }));
  /** `target` whose property `name` throws when read. */
  const throwing = (name: string, target: object = {}) =>
    Object.defineProperty(target, name, {
      get: () => {
        throw new Error(name);
      },
    });
  const revoked = (target: object) => {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy;
  };
  const bodies: [string, unknown][] = [
    ['a detached ArrayBuffer', detached()],
    ['a Uint8Array over a detached buffer', detached(utf8(userText))],
    ['a DataView over a detached buffer', detached(new DataView(utf8(userText).buffer))],
    ['a Uint8Array whose buffer getter throws', throwing('buffer', utf8(userText))],
    ['a Proxy that throws on every trap', hostile],
    ['a revoked Proxy', revoked({})],
    ['an object whose Symbol.toStringTag throws', throwing(Symbol.toStringTag as unknown as string)],
    ...(
      [
        null,
        undefined,
        0,
        NaN,
        -1,
        10n,
        true,
        Symbol('body'),
        () => userText,
        [],
        [userText],
        {},
        { text: userText },
        new String(userText),
      ] as unknown[]
    ).map((b) => [`${typeof b} ${String(b)}`, b] as [string, unknown]),
  ];
  // A String object or a symbol: fuzz-webhooks pins those.
  const signatures: [string, unknown][] = [
    ['a Proxy that throws on every trap', hostile],
    ['an object whose toString throws', throwing('toString')],
    ['a megabyte of hex', 'a'.repeat(1 << 20)],
  ];
  const others = (n: number) => Array.from({ length: n }, (_, i) => `sbx_other_${i}`);
  const keyLists: [string, unknown, boolean][] = [
    ['the key last of 8', [...others(7), key], true],
    ['9 keys, the key among them', [...others(8), key], false],
    ['an array-like of length 2^32-1', { length: 2 ** 32 - 1, 0: key }, false],
    ['an array of length 2^32-1', Object.assign(new Array(2 ** 32 - 1), { 0: key }), false],
    [
      'a Proxy of an array claiming length 2^32-1',
      new Proxy([key], { get: (t, p) => (p === 'length' ? 2 ** 32 - 1 : Reflect.get(t, p)) }),
      false,
    ],
    ['a Proxy that throws on every trap', hostile, false],
    ['an object whose length throws', throwing('length'), false],
    ['a number', 12345, false],
    ['the key and a number', [key, 1], false],
    ['the key as a String object', new String(key), false],
    ['an empty list', [], false],
    ['a revoked Proxy', revoked([key]), false],
    ['an array whose entry throws when read', throwing('1', [key, key]), false],
  ];

  for (const [name, raw] of bodies) {
    it(`body ${name}: WebhookPayloadError`, () => {
      expect(() => parseWebhookEvent(raw as string, userSignature, key)).toThrow(WebhookPayloadError);
      expect(verifyWebhookSignature(raw as string, userSignature, key)).toBe(false);
    });
  }

  for (const [name, s] of signatures) {
    it(`signature ${name}: WebhookSignatureError`, () =>
      expect(() => parseWebhookEvent(userText, s, key)).toThrow(WebhookSignatureError));
  }

  // Plain loops: a table formatter would print an array of length 2^32-1.
  // "At once": a loop over 2^32-1 entries would take minutes; a second leaves room for a loaded machine.
  for (const [name, keys, expected] of keyLists) {
    it(`key list ${name}: ${expected ? 'verified' : 'WebhookSignatureError (no-key)'} at once, synchronously and asynchronously`, async () => {
      const started = performance.now();
      expect(verifyWebhookSignature(userText, userSignature, keys as string[])).toBe(expected);
      expect(await verifyWebhookSignatureAsync(userText, userSignature, keys as string[])).toBe(expected);
      if (expected) expect(parseWebhookEvent(userText, userSignature, keys as string[])).toEqual(JSON.parse(userText));
      else
        expect(() => parseWebhookEvent(userText, userSignature, keys as string[])).toThrow(
          expect.objectContaining({ problem: 'no-key' }),
        );
      expect(performance.now() - started).toBeLessThan(1000);
    });
  }

  it('a signed body nested deeper than any schema: WebhookPayloadError or the event, never a RangeError', () => {
    for (const depth of [1_000, 100_000]) {
      const deep = `{"eventId":"4c7e2a19-8b3d-4f60-a5e1-9d2b7c0f3e84","eventType":"user.created","dataType":"user","createdAt":"2026-03-07T09:15:00Z","data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
      expect(() => parseWebhookEvent(deep, signWebhookPayload(deep, key), key), `depth ${depth}`).toThrow(
        WebhookPayloadError,
      );
    }
  });
});
