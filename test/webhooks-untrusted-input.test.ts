// The webhook helpers given what an attacker or a confused caller hands
// them: a look-alike of bytes (refused, never read by its claimed length),
// a webhook with thousands of collected requirements of a new type (each read
// for its type alone), a leading byte order mark (the same in a string and
// in bytes, and in `webhooks verify`), and a Request whose headers or body
// throw (only the documented error classes).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { verifyCommand } from '../src/cli/webhooks.js';
import {
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookRequest,
  verifyWebhookRequestBody,
  verifyWebhookSignature,
  verifyWebhookSignatureAsync,
  WebhookPayloadError,
  webhookPayloadIssues,
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

  it('refuses an object tagged ArrayBuffer: no signature matches it, parsing says it is no raw body', async () => {
    const fake = lookAlike(2) as unknown as ArrayBuffer;
    expect(Object.prototype.toString.call(fake)).toBe('[object ArrayBuffer]');
    expect(verifyWebhookSignature(fake, braces, key)).toBe(false);
    expect(await verifyWebhookSignatureAsync(fake, braces, key)).toBe(false);
    expect(() => parseWebhookEvent(fake, braces, key)).toThrow(WebhookPayloadError);
    expect(() => parseWebhookEvent(fake, braces, key)).toThrow(/must be the raw body as received/);
    expect(() => signWebhookPayload(fake, key)).toThrow(TypeError);
  });

  it('refuses one claiming 2^32-1 bytes without reading them', async () => {
    const huge = lookAlike(2 ** 32 - 1) as unknown as ArrayBuffer;
    expect(verifyWebhookSignature(huge, braces, key)).toBe(false);
    expect(await verifyWebhookSignatureAsync(huge, braces, key)).toBe(false);
    expect(() => parseWebhookEvent(huge, braces, key)).toThrow(/must be the raw body as received/);
  });

  it('refuses a real view whose buffer is shadowed by a look-alike', () => {
    const shadowed = Object.defineProperty(new Uint8Array(2), 'buffer', { value: lookAlike(2 ** 32 - 1) });
    expect(verifyWebhookSignature(shadowed, braces, key)).toBe(false);
    expect(() => parseWebhookEvent(shadowed, braces, key)).toThrow(/webhook body cannot be read/);
  });

  it('reads a real buffer from another realm, and a SharedArrayBuffer, as the bytes they hold', () => {
    const foreign = vm.runInNewContext('new Uint8Array([123, 125]).buffer') as ArrayBuffer;
    expect(foreign instanceof ArrayBuffer).toBe(false);
    expect(verifyWebhookSignature(foreign, braces, key)).toBe(true);
    const shared = new SharedArrayBuffer(utf8(userText).length);
    new Uint8Array(shared).set(utf8(userText));
    expect(verifyWebhookSignature(shared as unknown as ArrayBuffer, userSignature, key)).toBe(true);
    expect(parseWebhookEvent(shared as unknown as ArrayBuffer, userSignature, key)).toEqual(JSON.parse(userText));
  });
});

describe('collected requirements of a new type', () => {
  const updated = examples.get('verification.updated')!;
  const data = updated.data as { collectedRequirements: object[] };

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
    const payload = {
      ...updated,
      data: { ...data, collectedRequirements: [...data.collectedRequirements, ...entries] },
    };
    expect(webhookPayloadIssues(payload)).toEqual([]);
    expect(reads).toEqual({ type: 1000, other: 0 });
  });

  it('of 20,000 new entries and one broken documented one, reports the documented one only', () => {
    const added = Array.from({ length: 20_000 }, (_, i) => ({ type: 'selfie', result: i, verified: 'maybe' }));
    const broken = { type: 'dateOfBirth', result: { dateOfBirth: 19900101 }, verified: true };
    const payload = { ...updated, data: { ...data, collectedRequirements: [...added, broken] } };
    const issues = webhookPayloadIssues(payload);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.path).toMatch(/^\/data\/collectedRequirements\/20000(\/|$)/);
    expect(webhookPayloadIssues({ ...updated, data: { ...data, collectedRequirements: added } })).toEqual([]);
  });
});

describe('a leading byte order mark', () => {
  const withMark = `\uFEFF${userText}`;
  const signature = signWebhookPayload(withMark, key);
  const request = () =>
    new Request('http://receiver.test/webhooks', {
      method: 'POST',
      body: utf8(withMark),
      headers: { 'X-SIGNATURE': signature },
    });

  it('is ignored alike in a string and in bytes, through every parsing function', async () => {
    const event = JSON.parse(userText);
    expect(parseWebhookEvent(withMark, signature, key)).toEqual(event);
    expect(parseWebhookEvent(utf8(withMark), signature, key)).toEqual(event);
    expect(await verifyWebhookRequest(request(), key)).toEqual(event);
  });

  it('is kept in the text verifyWebhookRequestBody gives, which verifies again as it is', async () => {
    const text = await verifyWebhookRequestBody(request(), key);
    expect(text).toBe(withMark);
    expect(parseWebhookEvent(text!, signature, key)).toEqual(JSON.parse(userText));
  });
});

describe('webhooks verify decodes as parseWebhookEvent does', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vc-verify-utf8-'));
  const verify = async (bytes: Uint8Array) => {
    const file = path.join(dir, 'body');
    writeFileSync(file, bytes);
    const lines: string[] = [];
    const signature = signWebhookPayload(bytes, key);
    const code = await verifyCommand(['--key', key, '--signature', signature, file], (line) => lines.push(line));
    return { code, out: lines.join('\n'), parsed: () => parseWebhookEvent(bytes, signature, key) };
  };

  it('refuses bytes that are not UTF-8, as parseWebhookEvent refuses them', async () => {
    const text = utf8(userText);
    // A lone continuation byte inside a string value: a lax decoder would read it as U+FFFD.
    const broken = new Uint8Array([...text.subarray(0, 20), 0x80, ...text.subarray(20)]);
    const { code, out, parsed } = await verify(broken);
    expect(out).toContain('payload: invalid, not UTF-8 JSON');
    expect(code).toBe(1);
    expect(parsed).toThrow(/not UTF-8 JSON/);
  });

  it('reads a body with a leading byte order mark as parseWebhookEvent reads it', async () => {
    const { code, out, parsed } = await verify(utf8(`\uFEFF${userText}`));
    expect(out).toContain('payload: a valid user.created webhook.');
    expect(code).toBe(0);
    expect(parsed()).toEqual(JSON.parse(userText));
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

  it.each(thrownValues)('a headers.get that throws %s: a TypeError naming the function', async (_, thrown) => {
    for (const [name, helper] of [
      ['verifyWebhookRequest', verifyWebhookRequest],
      ['verifyWebhookRequestBody', verifyWebhookRequestBody],
    ] as const) {
      const rejection = helper(throwingHeaders(thrown), key);
      await expect(rejection).rejects.toBeInstanceOf(TypeError);
      await expect(rejection).rejects.toThrow(new RegExp(`^${name}: request must be a Web Request`));
      await expect(rejection).rejects.toMatchObject({ cause: thrown });
    }
  });

  it.each(thrownValues)('a body whose reading throws %s', async (_, thrown) => {
    await expect(verifyWebhookRequest(failingBody(thrown), key)).rejects.toThrow(
      expect.objectContaining({
        name: 'WebhookPayloadError',
        message: expect.stringMatching(/^cannot read the webhook body/),
      }),
    );
    const rejection = verifyWebhookRequestBody(failingBody(thrown), key);
    await expect(rejection).rejects.toBeInstanceOf(TypeError);
    await expect(rejection).rejects.toThrow(/^verifyWebhookRequestBody: request must be a Web Request/);
    await expect(rejection).rejects.toMatchObject({ cause: thrown });
  });

  it('a body read as a look-alike of bytes: refused, never read by its claimed length', async () => {
    const fake = { [Symbol.toStringTag]: 'ArrayBuffer', length: 2 ** 32 - 1 };
    await expect(verifyWebhookRequest(failingBody(null, fake), key)).rejects.toThrow(
      /cannot read the webhook body .*did not give bytes/,
    );
    expect(await verifyWebhookRequestBody(failingBody(null, fake), key)).toBeNull();
  });
});
