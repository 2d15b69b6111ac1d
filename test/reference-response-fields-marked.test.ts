// What the partner and v2 references say of the fields the service sends:
// where a field's presence, value or count rests on a DECISIONS.md row rather
// than on the documents, the schema a partner reads carries that row's Assumed
// marker; examples marked illustrative where they show an undocumented value.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSUMED_MARKER } from '../scripts/lib/doc-pages.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { expectMarked } from './helpers/document-texts.js';
import { loadBundle, type Json } from './helpers/openapi.js';
import { REQUEST_ONLY_SCHEMAS } from './helpers/partner-document.js';

const v2 = loadBundle('v2');
const partner = loadBundle('partner');
const schemas = partner.components.schemas;

const marked = (text: string | undefined) => [...(text ?? '').matchAll(ASSUMED_MARKER)].map((m) => m[1]);

describe('which fields the service always sends is marked where partners read the schema (P8)', () => {
  it('the deprecated echoed fields and `metadata` may be absent, under the P8 marker', () => {
    for (const name of ['Verification', 'CreatedVerification', 'VerificationEventData']) {
      for (const field of ['phoneNumber', 'isPhoneNumberVerified', 'requireFirstAndLastName', 'metadata']) {
        expect(schemas[name].required, `${name}.${field}`).not.toContain(field);
        expectMarked(schemas[name].properties[field].description, /absent/, 'P8');
      }
    }
  });

  it('every object the service sends that lists required fields says they rest on P8', () => {
    // Bodies partners send are strict by policy; the other two carry their own row or say what they check.
    const exempt = new Set([
      ...REQUEST_ONLY_SCHEMAS,
      'Error', // P2: the whole error body is an assumption
      'OtherWebhookEvent', // only the envelope of an event type added later is checked (P24)
    ]);
    const unmarked = Object.entries(schemas as Record<string, Json>)
      .filter(([name, schema]) => !exempt.has(name) && Array.isArray(schema.required) && schema.required.length > 0)
      .filter(([, schema]) => !marked(schema.description).includes('P8'))
      .map(([name]) => name);
    expect(unmarked).toEqual([]);
  });
});

describe('what the webhooks carry and where they are kept', () => {
  it('`userId` and `previousUserId` of the verification data: absent or null under P9, a revert from waitingForUserInput included', () => {
    const data = schemas.VerificationEventData.properties;
    expectMarked(data.userId.description, /absent or `null`/, 'P9');
    expectMarked(data.previousUserId.description, /waitingForUserInput/, 'P9');
    expectMarked(data.previousUserId.description, /absent or `null`/, 'P9');
  });

  it('each webhook names the one history that keeps it, under P24', () => {
    const webhooks = Object.entries(partner.webhooks as Record<string, Json>);
    expect(webhooks).toHaveLength(7);
    for (const [name, item] of webhooks) {
      const description = item.post.description as string;
      const history = name.startsWith('verification.')
        ? '`GET /verifications/{verificationId}/webhooks`'
        : '`GET /users/{userId}/webhooks`';
      const other = name.startsWith('verification.')
        ? '/users/{userId}/webhooks'
        : '/verifications/{verificationId}/webhooks';
      expect(description, name).toContain(history);
      expect(description, name).not.toContain(other);
      expectMarked(description, /history/, 'P24');
    }
  });

  it("a webhook record's `reason` is optional under P24", () => {
    for (const name of ['VerificationWebhookRecord', 'UserWebhookRecord']) {
      expect(schemas[name].required, name).not.toContain('reason');
      expectMarked(schemas[name].properties.reason.description, /optional/, 'P24');
    }
  });

  it('`updatedAt` in `verification.created` may be absent, and marked as assumed (P33)', () => {
    expect(schemas.VerificationEventData.required).not.toContain('updatedAt');
    expectMarked(schemas.VerificationCreatedEventData.description, /`updatedAt`/, 'P33');
    expectMarked(schemas.VerificationEventData.properties.updatedAt.description, /verification\.created/, 'P33');
  });
});

describe('counts and examples agree with what the reference says of them', () => {
  const examples = partner.components.examples as Record<string, Json>;

  it("a rotation's `count` counts the keys of the answer (P31), and every example agrees", () => {
    expectMarked(schemas.AuthKeyRotation.properties.count.description, /keys of the answer/, 'P31');
    for (const name of ['AuthKeyCreated', 'AuthKeyCreatedAgain']) {
      const { authKeys, count } = examples[name].value;
      expect(count, name).toBe(authKeys.length);
    }
  });

  it('a paged list example counts at least the entries it shows (the total across pages)', () => {
    const lists = Object.entries(examples).filter(([, e]) => typeof e.value?.count === 'number');
    expect(lists.length).toBeGreaterThan(5);
    for (const [name, { value }] of lists) {
      const items = Object.values(value).find(Array.isArray) as unknown[];
      expect(value.count, name).toBeGreaterThanOrEqual(items.length);
    }
  });

  it('a v2 validation error example says its codes are illustrative', () => {
    for (const [name, example] of Object.entries(v2.components.examples as Record<string, Json>)) {
      if (!example.value?.details) continue;
      expect(example.description, name).toMatch(/illustrative/);
    }
  });

  it("v2 `Error.statusCode`'s bounds say why, and the strictness table names them", () => {
    const statusCode = v2.components.schemas.Error.properties.statusCode;
    expect([statusCode.minimum, statusCode.maximum]).toEqual([100, 599]);
    expect(statusCode.description).toMatch(/100\s+to 599 \(RFC 9110/);
    const decisions = readFileSync(path.join(ROOT, 'openapi', 'DECISIONS.md'), 'utf8');
    const row = decisions.split('\n').find((l) => l.startsWith('| `minimum: 100`, `maximum: 599` on `statusCode`'));
    expect(row).toContain('v2 `Error`');
  });
});
