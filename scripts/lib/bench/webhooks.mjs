// Part 3: verifying and parsing webhooks against raw node:crypto, and what a
// receiver weighs bundled for the edge beside two verify-only libraries.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../paths.mjs';
import { benchEdgeBundles } from './edge-bundles.mjs';
import { MeasureError, builtFile } from './proc.mjs';

const lib = (file) => pathToFileURL(builtFile(ROOT, 'src', file)).href;
const KEY = 'bench-auth-key-0123456789abcdef';

/**
 * A valid `verification.updated` envelope of exactly `size` bytes. The
 * contract bounds `reason` (200), `metadata` (50 keys of 500 characters) and
 * most strings; `phoneNumbers` has no bound, so the body grows by phone
 * numbers and `reason` pads it to the exact size.
 */
function envelope(example, size) {
  const data = {
    verificationId: example.data.verificationId,
    status: 'waitingForUserInput',
    redirectUrl: example.data.redirectUrl,
    externalUserId: example.data.externalUserId,
    phoneNumbers: [],
    requirements: [{ type: 'document' }, { type: 'phoneNumbers' }],
    collectedRequirements: [],
    userId: null,
    previousUserId: null,
    reason: '',
    validTo: example.data.validTo,
    createdAt: example.data.createdAt,
    updatedAt: example.data.updatedAt,
  };
  const event = { ...example, data };
  const length = () => Buffer.byteLength(JSON.stringify(event));
  const phone = (i) => ({ phoneNumber: `+49151${String(i).padStart(8, '0')}`, isVerified: false });
  // Every entry has the same length (fixed-width numbers), plus its comma.
  const entry = Buffer.byteLength(JSON.stringify(phone(0))) + 1;
  data.phoneNumbers.push(phone(0));
  const count = Math.max(1, 1 + Math.floor((size - length()) / entry));
  for (let i = 1; i < count; i++) data.phoneNumbers.push(phone(i));
  const gap = size - length();
  if (gap < 0 || gap > 200) throw new MeasureError(`cannot build a valid ${size}-byte webhook (gap ${gap})`);
  data.reason = 'r'.repeat(gap);
  return Buffer.from(JSON.stringify(event));
}

/** Runs each variant for `ms` per round, `rounds` rounds, in a rotating order. */
function interleaved(variants, { rounds, ms }) {
  const names = Object.keys(variants);
  const ops = Object.fromEntries(names.map((n) => [n, 0]));
  const time = Object.fromEntries(names.map((n) => [n, 0]));
  let sink = 0;
  for (const n of names) for (let i = 0; i < 20; i++) sink += variants[n]() ? 1 : 0; // warm-up
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(k + r) % names.length];
      const fn = variants[n];
      const start = performance.now();
      let done = 0;
      let elapsed = 0;
      do {
        for (let i = 0; i < 8; i++) sink += fn() ? 1 : 0;
        done += 8;
        elapsed = performance.now() - start;
      } while (elapsed < ms);
      ops[n] += done;
      time[n] += elapsed;
    }
  }
  if (sink < 0) console.log(sink);
  return Object.fromEntries(names.map((n) => [n, { ops: ops[n], ms: time[n], opsPerSec: (ops[n] * 1000) / time[n] }]));
}

/**
 * A `verification.updated` carrying `count` collected requirements of a type
 * the package does not know, parsed: each entry is read for its type and
 * left out of the check, so the time grows with the body, not with the
 * entries squared. The best of 5 parses, in ms.
 */
function measureNewEntries(example, parseWebhookEvent, signWebhookPayload, log) {
  const results = {};
  for (const count of [2_000, 20_000]) {
    const entries = Array.from({ length: count }, (_, i) => ({ type: 'selfie', result: i, verified: 'maybe' }));
    const body = Buffer.from(JSON.stringify({ ...example, data: { ...example.data, collectedRequirements: entries } }));
    const signature = signWebhookPayload(body, KEY);
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 5; round++) {
      const start = performance.now();
      parseWebhookEvent(body, signature, KEY);
      best = Math.min(best, performance.now() - start);
    }
    log(`  ${count} collected requirements of a new type: parsed in ${best.toFixed(1)} ms (${body.length} bytes)`);
    results[count] = { bytes: body.length, bestMs: best };
  }
  return results;
}

export async function benchWebhooks({ log }) {
  const { verifyWebhookSignature, parseWebhookEvent, signWebhookPayload } = await import(lib('webhooks/index.js'));
  const { documentedWebhookExamples } = await import(lib('webhooks/examples.js'));
  const example = documentedWebhookExamples().get('verification.updated');
  if (!example) throw new MeasureError('the partner document has no verification.updated example');

  const sizes = [
    { name: '1 KiB', bytes: 1024, rounds: 5, ms: 120 },
    { name: '1 MiB', bytes: 1024 * 1024, rounds: 5, ms: 250 },
  ];
  const results = {};
  for (const size of sizes) {
    const body = envelope(example, size.bytes);
    const signature = signWebhookPayload(body, KEY);
    try {
      parseWebhookEvent(body, signature, KEY);
    } catch (err) {
      throw new MeasureError(`the ${size.name} webhook built for the benchmark is not valid: ${err.message}`);
    }
    if (!verifyWebhookSignature(body, signature, KEY))
      throw new MeasureError(`verifyWebhookSignature refused the ${size.name} webhook`);
    log(`  ${size.name} body (${JSON.parse(body).data.phoneNumbers.length} phone numbers)`);
    const rawHmac = () =>
      timingSafeEqual(createHmac('sha256', KEY).update(body).digest(), Buffer.from(signature, 'hex'));
    const measured = interleaved(
      {
        rawHmac,
        verify: () => verifyWebhookSignature(body, signature, KEY),
        rawHmacJsonParse: () => rawHmac() && JSON.parse(body.toString('utf8')) !== null,
        parse: () => parseWebhookEvent(body, signature, KEY) !== null,
      },
      size,
    );
    results[size.name] = {
      bytes: body.length,
      phoneNumbers: JSON.parse(body).data.phoneNumbers.length,
      ...measured,
      ratio: {
        verifyToRawHmac: measured.rawHmac.opsPerSec / measured.verify.opsPerSec,
        parseToRawHmac: measured.rawHmac.opsPerSec / measured.parse.opsPerSec,
        parseToRawHmacJsonParse: measured.rawHmacJsonParse.opsPerSec / measured.parse.opsPerSec,
      },
    };
  }
  const newEntries = measureNewEntries(example, parseWebhookEvent, signWebhookPayload, log);
  const edge = await benchEdgeBundles({ log });
  return {
    newEntries,
    bodies:
      'verification.updated envelopes grown with phoneNumbers entries, padded with reason; passed as a Buffer (raw bytes as received)',
    sizes: results,
    edge,
  };
}
