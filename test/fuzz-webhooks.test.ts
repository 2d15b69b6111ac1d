// Property-based fuzzing of webhook verification and parsing, one property per claim: no false accept, no false
// reject, only the two documented error types, generated payloads judged as by Ajv. HMAC (RFC 2104) zero-pads a short
// key, so `key` and `key + "\0"` are one HMAC key: no generated "other key" is such a pair (the first test says why).
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { webhookSchemas } from '../generated/validators/partner-webhooks.js';
import { mutatedValueFor, valueFor } from '../src/conformance/schema-values.js';
import { documentedWebhookExamples } from '../src/webhooks/examples.js';
import {
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookSignature,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../src/webhooks/index.js';
import { schemaIssues } from '../src/webhooks/schema-check.js';
import { deref, loadBundle, pointer, validatorFor, type Json } from './helpers/openapi.js';

const SEED = 20260307;
const KEY = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
const doc = loadBundle('partner');
// The oracle: the partner document's schemas, through Ajv, independent of the package's generated validators.
const validator = validatorFor('partner');
const isWebhookEvent = validator.at(pointer('components', 'schemas', 'WebhookEvent'));

// What parseWebhookEvent must return rather than refuse (P38, additions): a known event valid once its documented value
// lists are opened (a new status) and its collected requirements of a new type left out, or an unknown event type in a
// well-formed envelope.
const openLists = (node: Json, inIf = false): Json =>
  Array.isArray(node)
    ? node.map((n) => openLists(n, inIf))
    : node && typeof node === 'object'
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([k, v]) => inIf || k !== 'enum' || !Array.isArray(v) || v.length < 2)
            .map(([k, v]) => [k, openLists(v, inIf || k === 'if')]),
        )
      : node;
const openAjv = new Ajv2020({ strict: false });
(addFormatsModule as unknown as typeof addFormatsModule.default)(openAjv);
openAjv.addSchema(openLists(doc), 'open');
const isOpenWebhookEvent = openAjv.compile({ $ref: `open${pointer('components', 'schemas', 'WebhookEvent')}` });
const knownTypes = new Set(Object.keys(doc.webhooks));
const requirementTypes: string[] = doc.components.schemas.RequirementType.enum;
const nonEmpty = (v: unknown) => typeof v === 'string' && v !== '';
const isObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
function isAccepted(value: unknown): boolean {
  if (!isObject(value)) return false;
  const e = value as Record<string, unknown>;
  if (nonEmpty(e.eventType) && !knownTypes.has(e.eventType as string))
    return nonEmpty(e.eventId) && nonEmpty(e.dataType) && nonEmpty(e.createdAt) && isObject(e.data);
  const collected = (e.data as Json)?.collectedRequirements;
  const known = (r: Json) => typeof r?.type !== 'string' || requirementTypes.includes(r.type);
  const checked = Array.isArray(collected)
    ? { ...e, data: { ...(e.data as Json), collectedRequirements: collected.filter(known) } }
    : value;
  return isWebhookEvent(checked) || isOpenWebhookEvent(checked);
}

const examples: [string, Json][] = [...documentedWebhookExamples().entries()];
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** A signed delivery: the exact bytes, their signature, and the event they carry. */
const sign = (eventType: string, value: Json) => {
  const text = JSON.stringify(value);
  return { eventType, value, bytes: utf8(text), signature: signWebhookPayload(text, KEY) };
};

// The documented examples, compact as the service sends them, and each with non-ASCII text in its first string member
// of data other than ids, times, addresses and statuses, so that Unicode normalisation has something to change.
const UNICODE = 'Zoë Łukasiewicz, Ångström café, Kraków'; // NFC
type Signed = ReturnType<typeof sign>;
const bases: Signed[] = examples.flatMap(([eventType, value]) => {
  const name = Object.keys(value.data).find(
    (k) => typeof value.data[k] === 'string' && !/Id$|At$|To$|Url$|status|type|age/i.test(k),
  );
  return [
    sign(eventType, value),
    sign(eventType, name ? { ...value, data: { ...value.data, [name]: UNICODE } } : value),
  ];
});

/** A way of holding the received bytes: a string, a Buffer, a Uint8Array, an ArrayBuffer, a view into larger bytes. */
const holders = fc.constantFrom(
  (b: Buffer) => b.toString('utf8'),
  (b: Buffer) => Buffer.from(b),
  (b: Buffer) => new Uint8Array(b),
  (b: Buffer) => new Uint8Array(b).buffer as unknown as Uint8Array,
  (b: Buffer) => {
    const larger = Buffer.concat([utf8('before'), b, utf8('after')]);
    return new DataView(larger.buffer, larger.byteOffset + 6, b.length) as unknown as Uint8Array;
  },
);

/** What a call did: returned what, or threw which kind of error. */
function outcome(call: () => unknown): { returned: unknown } | 'signature' | 'payload' | `other: ${string}` {
  try {
    return { returned: call() };
  } catch (err) {
    if (err instanceof WebhookSignatureError) return 'signature';
    if (err instanceof WebhookPayloadError) return 'payload';
    return `other: ${(err as Error)?.name}: ${(err as Error)?.message}`;
  }
}

/** The same event written otherwise: re-serialized, re-escaped, re-normalised, re-encoded, padded. */
function rewrites(s: Signed): Buffer[] {
  const text = s.bytes.toString('utf8');
  const texts = [
    JSON.stringify(s.value, null, 2),
    JSON.stringify(Object.fromEntries(Object.entries(s.value).reverse())),
    text.replace(/":/g, '": ').replace(/,"/g, ', "'),
    text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    text.replace(/\//g, '\\/'),
    ...(['NFD', 'NFKD', 'NFKC'] as const).map((form) => text.normalize(form)),
    ...['\n', '\r\n', ' ', '\0', '\uFEFF'].flatMap((ws) => [text + ws, ws + text]),
  ];
  return [...texts.map(utf8), Buffer.from(text, 'latin1')];
}

/** Where `whole` (of `length`) is cut and what goes there: a change, a cut or an insertion anywhere. */
const splice = <T>(length: number, part: fc.Arbitrary<T>) =>
  fc.tuple(fc.nat(length), fc.nat(length), part).map(([a, b, p]) => [Math.min(a, b), Math.max(a, b), p] as const);

/** Other bytes than the signed ones: spliced (a byte changed, cut or added), the event rewritten, another delivery. */
const tamperedBody = (s: Signed): fc.Arbitrary<Buffer> =>
  fc
    .oneof(
      splice(s.bytes.length, fc.uint8Array({ maxLength: 3 })).map(([from, to, part]) =>
        Buffer.concat([s.bytes.subarray(0, from), part, s.bytes.subarray(to)]),
      ),
      { weight: 2, arbitrary: fc.constantFrom(...rewrites(s)) },
      fc.constantFrom(...bases).map((o) => o.bytes),
    )
    .filter((bytes) => !bytes.equals(s.bytes));

/** Keys that are not the signing key as an HMAC key. */
const otherKey = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 80 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
    fc.constantFrom(KEY.toUpperCase(), ` ${KEY}`, `${KEY}\n`, KEY.replace('sbx_', '')),
    splice(KEY.length, fc.string({ maxLength: 2 })).map(
      ([from, to, part]) => KEY.slice(0, from) + part + KEY.slice(to),
    ),
  )
  .filter((k) => k.replace(/\0+$/, '') !== KEY);

/** Anything but the bytes' signature: spliced, decorated, plain SHA-256, another key's or body's, not a string. */
const tamperedSignature = (s: Signed): fc.Arbitrary<unknown> =>
  fc
    .oneof(
      splice(64, fc.string({ maxLength: 3, unit: fc.constantFrom(...'0123456789abcdefABCDEF =') })).map(
        ([from, to, part]) => s.signature.slice(0, from) + part + s.signature.slice(to),
      ),
      fc.constantFrom<unknown>(
        s.signature.toUpperCase(),
        `sha256=${s.signature}`,
        `"${s.signature}"`,
        createHash('sha256').update(s.bytes).digest('hex'),
        [s.signature],
        Buffer.from(s.signature, 'hex'),
        new String(s.signature),
        Symbol('signature'),
        () => s.signature,
      ),
      otherKey.map((k) => signWebhookPayload(s.bytes, k)),
      fc.constantFrom(...bases.filter((o) => !o.bytes.equals(s.bytes))).map((o) => o.signature),
      fc.anything(), // null, undefined, '', numbers among others
    )
    .filter((signature) => signature !== s.signature);

/** Key arguments without the signing key: other keys, lists of them, anything, and the key held as no string. */
const wrongKeys: fc.Arbitrary<unknown> = fc.oneof(
  otherKey,
  fc.array(otherKey, { maxLength: 3 }),
  fc.anything(),
  fc.constantFrom<unknown>('', undefined, [''], [null, 1, {}], new String(KEY), [new String(KEY)], utf8(KEY)),
);
/** A key list holding the signing key among up to 3 others, the empty string among them. */
const keyLists = fc
  .tuple(fc.array(fc.oneof(otherKey, fc.constant('')), { maxLength: 3 }), fc.nat(3))
  .map(([others, at]) => [...others.slice(0, at), KEY, ...others.slice(at)]);
const signed = fc.constantFrom(...bases);

describe('fuzzing webhook signatures and parsing', () => {
  it('accepts the exact signed bytes of every example however held, under the key alone or in any key list', () => {
    expect(examples.map(([eventType]) => eventType)).toEqual(Object.keys(doc.webhooks));
    for (const b of bases) expect(isWebhookEvent(b.value), b.eventType).toBe(true);
    // The one equivalence HMAC has, no false accept: the key followed by zero bytes is the secret too.
    expect(verifyWebhookSignature(bases[0].bytes, bases[0].signature, `${KEY}\0`)).toBe(true);
    expect(verifyWebhookSignature(bases[0].bytes, bases[0].signature, `${KEY}\0\0`)).toBe(true);
    expect(verifyWebhookSignature(bases[0].bytes, bases[0].signature, `${KEY}0`)).toBe(false);
    fc.assert(
      fc.property(signed, holders, keyLists, (s, hold, keys) => {
        const raw = hold(s.bytes);
        expect(verifyWebhookSignature(raw, s.signature, KEY)).toBe(true);
        expect(verifyWebhookSignature(raw, s.signature, keys)).toBe(true);
        expect(parseWebhookEvent(raw, s.signature, keys)).toEqual(s.value);
      }),
      { numRuns: 1500, seed: SEED },
    );
  });

  it('refuses any other body, any other signature and any key list without the key: false, and WebhookSignatureError', () => {
    const refused = (body: unknown, signature: unknown, keys: unknown) => {
      const args = [body, signature, keys] as Parameters<typeof parseWebhookEvent>;
      return !verifyWebhookSignature(...args) && outcome(() => parseWebhookEvent(...args)) === 'signature';
    };
    const delivery = fc.oneof(...bases.map((s) => fc.tuple(fc.constant(s), tamperedBody(s), tamperedSignature(s))));
    fc.assert(
      fc.property(delivery, holders, keyLists, wrongKeys, ([s, body, signature], hold, keys, wrong) => {
        // A string holder keeps other bytes only when they are UTF-8.
        const tampered = utf8(body.toString('utf8')).equals(body) ? hold(body) : body;
        const raw = hold(s.bytes);
        return refused(tampered, s.signature, keys) && refused(raw, signature, KEY) && refused(raw, s.signature, wrong);
      }),
      { numRuns: 3000, seed: SEED },
    );
  });

  it('refuses a correctly signed body that is not UTF-8 JSON of a webhook with WebhookPayloadError only', () => {
    const garbage = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }).map(utf8),
      fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => utf8(JSON.stringify(v))),
      signed.chain((s) => fc.nat(s.bytes.length - 1).map((n) => s.bytes.subarray(0, n))),
      fc.constantFrom(
        utf8('['.repeat(20_000) + ']'.repeat(20_000)),
        utf8(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`),
        utf8(`"${'x'.repeat(1_100_000)}"`),
        Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      ),
    );
    fc.assert(
      fc.property(garbage, (bytes) => {
        const decoded = outcome(() => JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
        const expected = typeof decoded === 'object' && isAccepted(decoded.returned) ? decoded : 'payload';
        expect(outcome(() => parseWebhookEvent(bytes, signWebhookPayload(bytes, KEY), KEY))).toEqual(expected);
      }),
      { numRuns: 800, seed: SEED },
    );
  });

  // The interpreter against Ajv (2020-12, ajv-formats full) on the partner document's event schemas, each payload
  // judged by its event's schema and by another's (a near miss): the two must agree on every one. The tolerant
  // reader's departures (P37, P38, an unknown event type checked by its envelope only) are filters parse.ts lays
  // over the interpreter's issues: parseWebhookEvent, given the payload signed, is held to the oracle with the lists opened.
  const PAYLOADS_PER_EVENT = 1_500;
  it(`judges ${PAYLOADS_PER_EVENT} generated payloads of each webhook (valid and mutated), signed: parseWebhookEvent and the interpreter as Ajv`, () => {
    const { events, defs } = webhookSchemas;
    const judges = Object.values(events).map((name) => ({ name, validate: validator.schema(name) }));
    const interpreterAgrees = (value: unknown, judge: (typeof judges)[number]) =>
      (schemaIssues(value, defs[judge.name], defs).length === 0) === judge.validate(value);
    /** Mutations of a signed example: its envelope, any node of it, another event's data. */
    const exampleMutations = (s: Signed) =>
      fc.oneof(
        fc.oneof(fc.constantFrom(...knownTypes), fc.string()).map((eventType) => ({ ...s.value, eventType })),
        fc.constantFrom('verification', 'user', 'shareholder').map((dataType) => ({ ...s.value, dataType })),
        fc
          .constantFrom(...examples.filter(([t]) => t !== s.eventType))
          .map(([, other]) => ({ ...s.value, data: other.data })),
      );
    const seen: { refused: boolean; mutated: boolean; accepted: boolean }[] = [];
    for (const [eventType, name] of Object.entries(events)) {
      const own = judges.find((j) => j.name === name)!;
      const schema = deref(doc, { $ref: `#/components/schemas/${name}` });
      expect(schemaIssues(new Map(examples).get(eventType), defs[name], defs), eventType).toEqual([]);
      const payload = fc.oneof(
        { weight: 2, arbitrary: valueFor(doc, schema).map((value) => ({ value, mutated: false })) },
        ...[
          mutatedValueFor(doc, schema).map((m) => m.value),
          ...bases.filter((b) => b.eventType === eventType).map(exampleMutations),
        ].map((arbitrary) => arbitrary.map((value) => ({ value, mutated: true }))),
      );
      // A boolean property, not expect per payload: vitest's expect costs more than the judges.
      fc.assert(
        fc.property(payload, fc.constantFrom(...judges.filter((j) => j !== own)), holders, (p, other, hold) => {
          const text = JSON.stringify(p.value) ?? 'null';
          const accepted = isAccepted(JSON.parse(text));
          const parsed = outcome(() => parseWebhookEvent(hold(utf8(text)), signWebhookPayload(text, KEY), KEY));
          seen.push({ refused: !own.validate(p.value), mutated: p.mutated, accepted });
          return (
            interpreterAgrees(p.value, own) &&
            interpreterAgrees(p.value, other) &&
            isDeepStrictEqual(parsed, accepted ? { returned: JSON.parse(text) } : 'payload')
          );
        }),
        { numRuns: PAYLOADS_PER_EVENT, seed: SEED },
      );
    }
    expect(seen.length).toBeGreaterThanOrEqual(10_000);
    // Both kinds in earnest: valid payloads and ones that break a rule; most mutations break the schema (a field
    // the documents do not state is sent may be left out or null, so not all).
    const refused = seen.filter((p) => p.refused).length;
    expect(refused).toBeGreaterThan(seen.length / 4);
    expect(refused).toBeLessThan(seen.length * 0.9);
    const mutated = seen.filter((p) => p.mutated);
    expect(mutated.filter((p) => !p.accepted).length).toBeGreaterThan(mutated.length * 0.6);
  });
});
