// Statements the source documents do not make, read in both bundles: each
// test pins one, which is either gone or carries the Assumed marker of its
// DECISIONS.md row in the same paragraph; and the answer constraints a
// receiver meets are documented or recorded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { documentTexts, expectMarked, paragraphs } from './helpers/document-texts.js';
import { loadBundle, operationsOf, validatorFor, type Json } from './helpers/openapi.js';
import { REQUEST_ONLY_SCHEMAS } from './helpers/partner-document.js';

const v2 = loadBundle('v2');
const partner = loadBundle('partner');
const operation = (doc: Json, id: string) => operationsOf(doc).find((o) => o.operation.operationId === id)!.operation;

describe('statements the source documents do not make carry their Assumed marker', () => {
  it('v2 info: only `expiresAt` is said to have millisecond precision', () => {
    const conventions = paragraphs(v2.info.description).filter((p) => /millisecond/.test(p));
    expect(conventions.length).toBeGreaterThan(0);
    for (const p of conventions) {
      expect(p).not.toMatch(/Timestamps are [^.;]*millisecond/);
      expect(p).toContain('`expiresAt`');
    }
  });

  it('server descriptions do not invent how the address is handed out; the info marks what is assumed (V13, P27)', () => {
    for (const [doc, id, claim] of [
      [v2, 'V13', /production address nor/],
      [partner, 'P27', /sandbox environment nor/],
    ] as const) {
      const server = doc.servers[0].description as string;
      expect(server).not.toMatch(/handed out|handed over|with the integration|with the access token/);
      // Redoc shows a server description as plain text: no Markdown, or its marks show as typed.
      expect(server).not.toMatch(/[`*[\]]/);
      expectMarked(doc.info.description, claim, id);
    }
    const sandbox = loadBundle('sandbox');
    for (const server of sandbox.servers) expect(server.description).not.toMatch(/[`*[\]]/);
  });

  it('filter combination (AND across filters, OR within a comma list) is marked as assumed (P40, V18)', () => {
    expectMarked(operation(partner, 'listVerifications').description, /\bAND\b/, 'P40');
    expectMarked(operation(partner, 'listUsers').description, /\bAND\b/, 'P40');
    expectMarked(operation(partner, 'listUsers').description, /\bOR\b/, 'P40');
    expectMarked(operation(v2, 'listVerifications').description, /\bAND\b/, 'V18');
  });

  it('which webhooks a history holds is marked as assumed (P24)', () => {
    expectMarked(operation(partner, 'listUserWebhooks').description, /shareholder\.verified/, 'P24');
    expectMarked(operation(partner, 'listVerificationWebhooks').description, /verification\.\*/, 'P24');
  });

  it('"the same `eventId` on every retry" is marked, and no text says retries go on until a 200 (P23)', () => {
    const webhooksTag = partner.tags.find((t: Json) => t.name === 'Webhooks').description as string;
    expect(webhooksTag).not.toMatch(/until it gets/);
    expectMarked(webhooksTag, /same `eventId`|each `eventId` once/, 'P23');
    // The seven documented events (not the unions, nor the envelope of an event type yet unknown).
    const events = Object.entries(partner.components.schemas).filter(
      ([name]) => /Event$/.test(name) && !['WebhookEvent', 'OtherWebhookEvent'].includes(name),
    );
    expect(events.length).toBe(7);
    for (const [name, schema] of events as [string, Json][]) {
      expect(schema.properties.eventId.description, name).toBeDefined();
      expectMarked(schema.properties.eventId.description, /retr/, 'P23');
    }
  });

  it('revert rule 4 states what the document does; what `previousUserId` holds is marked (P9)', () => {
    const revert = operation(partner, 'revertVerification').description as string;
    const rule4 = paragraphs(revert).find((p) => p.startsWith('4.'))!;
    expect(rule4).toMatch(/`reverted`/);
    expect(rule4).toMatch(/verification\.updated/);
    expect(rule4).not.toMatch(/names the user/);
    expectMarked(revert, /waitingForUserInput`, when no user/, 'P9');
    for (const schema of ['Verification', 'VerificationEventData']) {
      expectMarked(partner.components.schemas[schema].properties.previousUserId.description, /null/, 'P9');
    }
  });

  it('echoed optional input is said to be absent only under the P8 marker or as not documented, never as a fact', () => {
    for (const name of ['Verification', 'CreatedVerification', 'VerificationEventData']) {
      const schema = partner.components.schemas[name];
      const absent = paragraphs(schema.description).filter((p) => /may be absent/.test(p));
      expect(absent.length, name).toBeGreaterThan(0);
      for (const p of absent) expect(p, name).toMatch(/^Not documented: |Assumed \(\[P8\]\(assumptions\.html#P8\)\): /);
      for (const field of ['firstName', 'lastName', 'errorRedirectUrl', 'reason', 'author']) {
        const description = schema.properties[field]?.description as string | undefined;
        if (description === undefined) continue;
        expect(description, `${name}.${field}`).not.toMatch(/absent when none/);
        expectMarked(description, /absent/, 'P8');
      }
    }
  });

  it('"`null` where not available" on GET /verifications/{verificationId} and in the create answer is marked (P9)', () => {
    expectMarked(operation(partner, 'getVerification').description, /`null`/, 'P9');
    const created = partner.components.schemas.CreatedVerification;
    expect(created.description).toMatch(/not available yet/);
    expectMarked(created.description, /always sent/, 'P9');
    for (const field of ['userId', 'previousUserId'])
      expectMarked(created.properties[field].description, /always sent/, 'P9');
  });

  it("a webhook record's type following its listing is marked (P24)", () => {
    for (const [name, type] of [
      ['VerificationWebhookRecord', 'verification'],
      ['UserWebhookRecord', 'user'],
    ]) {
      expectMarked(
        partner.components.schemas[name].properties.type.description,
        new RegExp(`always \`${type}\``),
        'P24',
      );
    }
  });

  it('every field of v2 identityDocument, faceScan and reviewResult being sent is marked (V10)', () => {
    for (const name of ['IdentityDocument', 'FaceScan', 'ReviewResult']) {
      expectMarked(v2.components.schemas[name].description, /always present/, 'V10');
    }
  });

  it("the revert body's two required fields are marked as assumed (P54)", () => {
    const revert = partner.components.schemas.VerificationRevert;
    expect([...revert.required].sort()).toEqual(['author', 'verificationId']);
    expectMarked(revert.description, /required/, 'P54');
  });

  it('meanings the documents do not give are not stated', () => {
    const s = partner.components.schemas;
    // "`estimatedAge` | enum: `unknown`, `under8`, … (99.5% confidence)": no meaning per value.
    expect(s.EstimatedAge.description).toContain('99.5%');
    expect(s.EstimatedAge.description).not.toMatch(/minimum|older than|no estimate/i);
    expect(v2.components.schemas.FaceScan.properties.ageEstimation.description).not.toMatch(/minimum/i);
    // "Values of `activity` beyond the two seen (`startSession`, `cameraIssue`): not shown."
    for (const text of [
      s.UserActivity.description,
      s.UserActivity.properties.activity.description,
      operation(partner, 'listVerificationUserActivities').description,
    ]) {
      expect(text).not.toMatch(/opened|camera could|ran into/);
    }
    // `isVerified` is explained for the create request only.
    expect(s.VerificationPhoneNumber.properties.isVerified.description).not.toMatch(/again/);
    expect(s.VerificationPhoneNumber.properties.isVerified.description).toMatch(/create request/);
    // "`dateOfBirth` | string or null, optional": no format is documented.
    for (const schema of [
      s.UserDetails.allOf?.find((m: Json) => m.properties?.dateOfBirth) ?? s.UserDetails,
      s.UserEventData,
    ]) {
      const dob = schema.properties.dateOfBirth;
      expect(dob.description).not.toMatch(/YYYY/);
      expect(dob.format).toBeUndefined();
      expect(dob.pattern).toBeUndefined();
    }
    // The v2 error table lists three statuses; "Other error statuses …: not shown."
    expect(v2.components.schemas.Error.description).not.toMatch(/every error/);
  });

  it('the partner API says both documented headers go on every call, not only with bodies', () => {
    const conventions = paragraphs(partner.info.description).find((p) => p.includes('X-Auth-Key'))!;
    expect(conventions).toContain('`Content-Type: application/json`');
    expect(conventions).toMatch(/every call/i);
    expect(conventions).not.toMatch(/with every request body/);
    expect(partner.components.securitySchemes.authKey.description).toMatch(
      /`X-Auth-Key: <AUTH_KEY>` and `Content-Type: application\/json`\s+on every call/,
    );
  });
});

describe("statements relaxed to the documents' words or marked where partners read them", () => {
  const s = partner.components.schemas;
  const texts = [v2, partner].flatMap((doc) => documentTexts(doc));

  it('says nothing the documents leave open as a fact', () => {
    const unsaid: [RegExp, string][] = [
      [/one entry per requirement/i, 'the documents do not say collectedRequirements has one entry per requirement'],
      [/at most one key is active/i, 'the documents say only that a rotation makes the previous key invalid'],
      [/invalid at once|deactivates the previous one at once/i, 'no timing of the invalidation is documented'],
      [/may be empty/i, 'the documents give `params` as an object, nothing more'],
      [/service assigned to the device/i, 'who assigns `deviceId` is not documented'],
      [/do not parse/i, 'the documents say nothing of the message wording'],
      [/E\.164 form[^.]*expected/i, 'E.164 is documented only for user phone numbers and the filters (P17)'],
      [/Timestamps are [^.;]*UTC/, 'UTC is documented only for `expiresAt` and the identity document'],
      [/at or before this instant/, "`to`'s inclusiveness is not documented (P19)"],
    ];
    for (const [claim, why] of unsaid) {
      const hits = texts.filter((t) => claim.test(t.text)).map((t) => t.at);
      expect(hits, `${claim}: ${why}`).toEqual([]);
    }
    expect(s.VerificationPhoneNumber.properties.phoneNumber.pattern).toBeUndefined();
  });

  it('marks `isVerified` as required in each create request entry (P8)', () => {
    expect([...s.VerificationPhoneNumber.required].sort()).toEqual(['isVerified', 'phoneNumber']);
    expectMarked(s.VerificationCreate.properties.phoneNumbers.description, /needs both/, 'P8');
    expectMarked(s.VerificationPhoneNumber.description, /needs `isVerified`/, 'P8');
  });

  it('states the inclusiveness of `to` once: not documented (P19)', () => {
    const to = partner.components.parameters.To;
    expect(to.name).toBe('to');
    expectMarked(to.description, /exactly this\s+instant is kept is not documented/, 'P19');
    expect(to.description.match(/inclusive|at or before|is kept/g)).toHaveLength(1);
  });

  it('marks both paging values as whole numbers (P7): `page` and `limit`', () => {
    for (const name of ['Page', 'Limit']) {
      const parameter = partner.components.parameters[name];
      expect(parameter.schema.type, name).toBe('integer');
      expectMarked(parameter.description, /whole numbers/, 'P7');
    }
  });

  it('marks "not paged" on the three lists without paging (P56)', () => {
    for (const id of ['listVerificationUserActivities', 'getVerificationLinkedByDevice', 'getUserLinkedByDevice']) {
      const op = operation(partner, id);
      expectMarked(op.description, /not paged/, 'P56');
      expect((op.parameters ?? []).map((p: Json) => p.name)).not.toContain('page');
    }
  });

  it('marks the required fields of the bodies that mark none optional (P54), and `validTo` from `timeToExpiry` (P57)', () => {
    expect(s.PartnerUpdate.required).toEqual(['webhookUrl']);
    expectMarked(s.PartnerUpdate.description, /required/, 'P54');
    expect(s.ExternalUsersCreate.required).toEqual(['externalUsers']);
    expect([...s.ExternalUsersCreate.properties.externalUsers.items.required].sort()).toEqual([
      'externalUserId',
      'phoneNumber',
    ]);
    expectMarked(s.ExternalUsersCreate.description, /required/, 'P54');
    expectMarked(s.VerificationCreate.properties.timeToExpiry.description, /validTo/, 'P57');
    expectMarked(operation(partner, 'createVerification').description, /validTo` is the creation time/, 'P57');
  });

  it('never lets "sandbox" mean the local one where partners could read it as the service\'s environment', () => {
    const page = readFileSync(path.join(ROOT, 'generated', 'docs', 'assumptions.html'), 'utf8').replace(
      /<[^>]+>/g,
      ' ',
    );
    const decisions = readFileSync(path.join(ROOT, 'openapi', 'DECISIONS.md'), 'utf8');
    const partnerRows = decisions.slice(
      decisions.indexOf('## v2 read API'),
      decisions.indexOf('## Rows no description marks'),
    );
    for (const [where, text] of [
      ...texts.map((t) => [t.at, t.text] as const),
      ['assumptions.html', page] as const,
      ['DECISIONS.md V and P rows', partnerRows] as const,
    ]) {
      const loose = text
        .replace(/sandbox_base_url/g, '')
        .replace(/local sandbox/gi, '')
        .replace(/sandbox environment/gi, '');
      expect(loose.match(/[^.]*\bsandbox\b[^.]*/i)?.[0], where).toBeUndefined();
    }
    expect(page.replace(/\s+/g, ' ')).toContain('The local sandbox in this package answers in that order.');
  });
});

describe('answer constraints are documented or recorded in the strictness table', () => {
  const decisions = readFileSync(path.join(ROOT, 'openapi', 'DECISIONS.md'), 'utf8');
  const table = decisions.slice(
    decisions.indexOf('| Constraint in answers or webhooks |'),
    decisions.indexOf('## v2 read API'),
  );

  it('every numeric bound on a field of an answer or webhook is named, with its value, in a row of the table', () => {
    const bounds: { field: string; rule: string }[] = [];
    // Component schemas that an answer or a webhook uses; request-only schemas are strict by policy.
    const requestOnly = new Set(REQUEST_ONLY_SCHEMAS);
    const note = (field: string, s: Json) => {
      for (const key of ['minimum', 'maximum']) if (key in s) bounds.push({ field, rule: `${key}: ${s[key]}` });
    };
    for (const doc of [v2, partner]) {
      const visit = (node: Json) => {
        if (!node || typeof node !== 'object') return;
        for (const [key, value] of Object.entries(node)) {
          if (['examples', 'example', 'enum', 'const', 'default'].includes(key)) continue;
          if (key === 'properties') {
            for (const [prop, schema] of Object.entries(value as Json)) {
              note(prop, schema);
              visit(schema);
            }
          } else visit(value);
        }
      };
      for (const [name, schema] of Object.entries(doc.components.schemas)) {
        if (requestOnly.has(name)) continue;
        // A named schema such as `Count` is the field `count` wherever it is used.
        note(`${name[0].toLowerCase()}${name.slice(1)}`, schema);
        visit(schema);
      }
    }
    expect(bounds.length).toBeGreaterThan(0);
    const rows = table.split('\n').filter((line) => line.startsWith('| '));
    for (const { field, rule } of bounds) {
      const row = rows.find((r) => r.includes(`\`${field}\``) && r.includes(rule));
      expect(
        row,
        `\`${field}\` has \`${rule}\` in answers; record it in the strictness table of DECISIONS.md`,
      ).toBeDefined();
    }
  });

  it('`externalUsersWithSuccess[].externalUserId` takes any string: the uuid format is a request rule', () => {
    const { expectValid } = validatorFor('partner');
    expectValid('ExternalUsersResult', {
      externalUsersWithSuccess: [{ externalUserId: 'crm-4711', phoneNumber: '+4915112345678', partnerUserId: 'u-1' }],
      unknownPhoneNumbers: [],
      invalidPhoneNumbers: [],
      duplicatedExternalUserIds: [],
    });
  });
});
