// What the sandbox refuses in a JSON body beyond the schemas' own rules:
// a field the operation's body schema does not declare (named, with the
// declared field it is probably meant to be), unless `allowUnknownFields`;
// bytes that are not UTF-8 (named by offset). Free-form objects (`metadata`)
// take any keys, and valid UTF-8 of every length passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundledDocument } from '../src/package-files.js';
import { closestName, unknownFieldViolations } from '../src/contract/unknown-fields.js';
import { errorBody } from '../src/sandbox/http/error-bodies.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';

const create = (extra: Record<string, unknown> = {}) => ({
  externalUserId: crypto.randomUUID(),
  redirectUrl: 'https://partner.example/done',
  ...extra,
});

let strict: Sandbox;
let lenient: Sandbox;
beforeAll(async () => {
  [strict, lenient] = await Promise.all([
    serveSandbox({ port: 0, validateResponses: true }),
    serveSandbox({ port: 0, validateResponses: true, allowUnknownFields: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([strict.close(), lenient.close()]);
  expect(strict.violations).toEqual([]);
  expect(lenient.violations).toEqual([]);
});

async function post(
  sandbox: Sandbox,
  target: string,
  body: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${sandbox.url}${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-key': sandbox.authKey, ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('a body field no document declares', () => {
  it('is found inside an array item, beside what the validator finds missing', async () => {
    const answer = await post(
      strict,
      '/verifications',
      JSON.stringify(create({ requirements: [{ typ: 'document' }] })),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'body.requirements.0.typ is not a documented field; did you mean type?; body.requirements.0.type is required',
    );
  });

  it('has no suggestion when no declared field is close, and lists the declared ones', async () => {
    const answer = await post(strict, '/_sandbox/clock/advance', JSON.stringify({ minutes: 1, colour: 'red' }));
    expect(answer).toEqual({
      status: 400,
      body: { statusCode: 400, message: 'body.colour is not a documented field (documented here: minutes)' },
    });
  });

  it('is any key of a free-form object: the partner metadata and the v2 session metadata', async () => {
    const partner = await post(
      strict,
      '/verifications',
      JSON.stringify(create({ metadata: { timeToExpire: 'kept', anyKeyAtAll: 'x' } })),
    );
    expect(partner.status).toBe(201);
    expect(partner.body.metadata).toEqual({ timeToExpire: 'kept', anyKeyAtAll: 'x' });
    const v2 = await post(
      strict,
      '/_sandbox/v2/verifications',
      JSON.stringify({
        externalId: 'free-form',
        country: 'NL',
        phoneNo: '+31612345678',
        metadata: { nested: { anything: [1, { goes: true }] } },
      }),
    );
    expect(v2.status).toBe(201);
  });

  it('is accepted, and the request served, with allowUnknownFields', async () => {
    const answer = await post(
      lenient,
      '/verifications',
      JSON.stringify(create({ timeToExpire: 5, requirements: [{ type: 'document', extra: 1 }] })),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).not.toHaveProperty('timeToExpire');
  });

  it('is named in v2 details[] with reasonCode UNKNOWN_FIELD, a message and the suggestion', () => {
    // v2 documents no operation with a body, so its shape is checked on the violations directly.
    const doc = readBundledDocument('partner');
    const violations = unknownFieldViolations(
      doc,
      { $ref: '#/components/schemas/VerificationCreate' },
      create({ timeToExpire: 5, requirements: [{ type: 'document', colour: 'red' }] }),
    );
    expect(errorBody('v2', 400, undefined, violations)).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Input data is invalid. Please check the details.',
      details: [
        {
          field: 'body.timeToExpire',
          reasonCode: 'UNKNOWN_FIELD',
          params: expect.objectContaining({
            message: 'is not a documented field; did you mean timeToExpiry?',
            suggestion: 'timeToExpiry',
          }),
        },
        {
          field: 'body.requirements.0.colour',
          reasonCode: 'UNKNOWN_FIELD',
          params: expect.not.objectContaining({ suggestion: expect.anything() }),
        },
      ],
    });
  });

  it('is known when any branch of allOf, oneOf or anyOf declares it', () => {
    const doc = {
      components: {
        schemas: {
          Base: { type: 'object', properties: { id: { type: 'string' } } },
          Either: {
            oneOf: [
              { properties: { card: { type: 'object', properties: { number: {} } } } },
              { properties: { iban: {} } },
            ],
          },
        },
      },
    };
    const schema = { allOf: [{ $ref: '#/components/schemas/Base' }, { $ref: '#/components/schemas/Either' }] };
    expect(unknownFieldViolations(doc, schema, { id: 'a', card: { number: 1 }, iban: 'x' })).toEqual([]);
    expect(
      unknownFieldViolations(doc, schema, { card: { numbr: 1 } }).map((v) => [v.field, v.params.suggestion]),
    ).toEqual([['body.card.numbr', 'number']]);
    expect(unknownFieldViolations(doc, { anyOf: [schema, { additionalProperties: true }] }, { anything: 1 })).toEqual(
      [],
    );
  });

  it('is suggested within a third of its length, ignoring case', () => {
    expect(closestName('timeToExpire', ['timeToExpiry', 'reason'])).toBe('timeToExpiry');
    expect(closestName('externaluserid', ['externalUserId'])).toBe('externalUserId');
    expect(closestName('typ', ['type'])).toBe('type');
    expect(closestName('colour', ['minutes'])).toBeUndefined();
    expect(closestName('ab', ['xy'])).toBeUndefined();
  });
});

describe('a body that is not UTF-8', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  // `{"reason":"A` is 12 bytes: the invalid byte is the 13th. A sequence cut short is named at its first byte;
  // an overlong form and a surrogate are not UTF-8 either.
  it.each([
    ['a byte no UTF-8 has, in the partner shape', '/verifications', bytes('{"reason":"A', [0xff], 'B"}'), 12],
    [
      'a sequence cut short, in the control API shape',
      '/_sandbox/clock/advance',
      bytes('{"a":"', [0xe2, 0x82], '"}'),
      6,
    ],
    ['an overlong form', '/_sandbox/clock/advance', bytes('{"a":"', [0xc0, 0xaf], '"}'), 6],
    ['a surrogate', '/_sandbox/clock/advance', bytes('{"a":"', [0xed, 0xa0, 0x80], '"}'), 6],
  ])('is refused with 400 naming the offset of the first invalid byte: %s', async (_, target, body, offset) => {
    expect(await post(strict, target, body)).toEqual({
      status: 400,
      body: { statusCode: 400, message: `body is not valid UTF-8: invalid byte at offset ${offset}` },
    });
  });

  it('is in v2 details[] with reasonCode INVALID_UTF8 and the offset', async () => {
    // v2 reads no body (its operations are GETs); the shape is that of any v2 400.
    const v2 = errorBody('v2', 400, undefined, [
      {
        field: 'body',
        reasonCode: 'INVALID_UTF8',
        params: { message: 'is not valid UTF-8: invalid byte at offset 2', offset: 2 },
      },
    ]);
    expect(v2).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ field: 'body', reasonCode: 'INVALID_UTF8', params: { offset: 2 } }],
    });
  });

  it('is told apart from UTF-8 of every length, which is stored as sent', async () => {
    const reason = 'é ✓ 𝄞 Zürich';
    const answer = await post(strict, '/verifications', Buffer.from(JSON.stringify(create({ reason }))));
    expect(answer.status).toBe(201);
    expect(answer.body.reason).toBe(reason);
  });

  it('keeps a byte order mark a character, which JSON refuses as such', async () => {
    const answer = await post(strict, '/verifications', bytes([0xef, 0xbb, 0xbf], JSON.stringify(create())));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^body is not valid JSON/);
  });
});
