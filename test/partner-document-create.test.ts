// The partner integration API document holds every fact of the service's
// partner documentation; this file: creating a verification (operation 5): the
// body's rules, the answer, the 409 conflicts, and revert (operation 6). Each
// expectation restates one of those facts (or, where the documentation is
// silent, the decision recorded in openapi/DECISIONS.md); dropping or
// loosening it in openapi/partner makes a test fail.
import { describe, expect, it } from 'vitest';
import { deref, type Json } from './helpers/openapi.js';
import { deprecationProblems } from './helpers/partner-additions.js';
import {
  doc,
  STATUSES,
  REQUIREMENT_TYPES,
  DEPRECATED,
  VERIFICATION_FIELDS,
  CREATE_FIELDS,
  CREATE_REQUIRED,
  REVERT_FIELDS,
  UUID,
  USER_ID,
  TIMESTAMP,
  op,
  response,
  body,
  responseSchema,
  bodySchema,
  requiredOf,
  example,
  without,
  sorted,
  expectDocumented,
  wantValid,
  wantInvalid,
  createdVerification,
  createBody,
  collected,
} from './helpers/partner-document.js';

describe('create verification (operation 5)', () => {
  const schema = bodySchema('post /verifications');
  const full = () => example('CreateVerificationRequestFull');

  it('takes the documented fields; externalUserId and redirectUrl are required (P5)', () => {
    expectDocumented(Object.keys(schema.properties), CREATE_FIELDS, 'fields of VerificationCreate');
    expect(
      sorted(schema.required.filter((f: string) => CREATE_FIELDS.includes(f))),
      'the documented create fields required',
    ).toEqual(sorted(CREATE_REQUIRED));
    for (const name of [
      'CreateVerificationRequestFull',
      'CreateVerificationRequestMinimal',
      'CreateVerificationRequestLegacy',
    ]) {
      wantValid(createBody, example(name), name);
    }
    wantValid(createBody, { externalUserId: UUID, redirectUrl: 'https://partner.example/done' });
    wantInvalid(createBody, without(full(), 'externalUserId'));
    wantInvalid(createBody, without(full(), 'redirectUrl'));
    for (const field of CREATE_FIELDS.filter((f) => !CREATE_REQUIRED.includes(f))) {
      wantValid(createBody, without(full(), field), `without ${field}`);
    }
  });

  it('externalUserId is a uuid', () => {
    wantInvalid(createBody, { ...full(), externalUserId: 'partner-user-17' });
    wantInvalid(createBody, { ...full(), externalUserId: 17 });
  });

  it('accepts the deprecated fields, marked deprecated', () => {
    const problems = deprecationProblems('VerificationCreate', schema.properties, DEPRECATED);
    expect(problems, problems.join('\n')).toEqual([]);
    wantValid(createBody, {
      ...full(),
      phoneNumber: '+4915112345678',
      isPhoneNumberVerified: true,
      requireFirstAndLastName: true,
    });
    wantInvalid(createBody, { ...full(), isPhoneNumberVerified: 'no' });
    wantInvalid(createBody, { ...full(), requireFirstAndLastName: 'yes' });
  });

  it('phoneNumbers are {phoneNumber, isVerified}; requirements take the four types', () => {
    const entry = doc.components.schemas.VerificationPhoneNumber;
    expect(sorted(entry.required)).toEqual(['isVerified', 'phoneNumber']);
    // E.164 is documented for user phone numbers and the filters only (P17).
    expect(entry.properties.phoneNumber.pattern).toBeUndefined();
    wantValid(createBody, { ...full(), phoneNumbers: [{ phoneNumber: '+4915112345678', isVerified: true }] });
    wantInvalid(createBody, { ...full(), phoneNumbers: [{ phoneNumber: '+4915112345678', isVerified: 'yes' }] });
    wantInvalid(createBody, { ...full(), phoneNumbers: '+4915112345678' });
    wantValid(createBody, { ...full(), requirements: REQUIREMENT_TYPES.map((type) => ({ type })) });
    wantInvalid(createBody, { ...full(), requirements: [{ type: 'faceScan' }] });
  });

  it('timeToExpiry is a number of minutes from 5 to 43200, default 10080', () => {
    expect(schema.properties.timeToExpiry).toMatchObject({
      type: 'number',
      minimum: 5,
      maximum: 43200,
      default: 10080,
    });
    for (const ok of [5, 10080, 43200]) wantValid(createBody, { ...full(), timeToExpiry: ok }, String(ok));
    for (const bad of [4, 43201, 0, '60']) wantInvalid(createBody, { ...full(), timeToExpiry: bad }, String(bad));
  });

  it('redirectUrl and errorRedirectUrl, sent by the partner, must be URIs (P29)', () => {
    for (const field of ['redirectUrl', 'errorRedirectUrl']) {
      wantValid(createBody, { ...full(), [field]: 'https://app.northwind-mobility.example/verification/done' }, field);
      wantInvalid(createBody, { ...full(), [field]: 'app.northwind-mobility.example/done' }, field);
    }
  });

  it('reason is at most 200 characters and author at most 100', () => {
    wantValid(createBody, { ...full(), reason: 'r'.repeat(200) });
    wantInvalid(createBody, { ...full(), reason: 'r'.repeat(201) });
    wantValid(createBody, { ...full(), author: 'a'.repeat(100) });
    wantInvalid(createBody, { ...full(), author: 'a'.repeat(101) });
  });

  it('metadata: up to 50 keys, key names up to 40 characters, values up to 500 characters', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, 'value']));
    wantValid(createBody, { ...full(), metadata: keys(50) });
    wantInvalid(createBody, { ...full(), metadata: keys(51) });
    wantValid(createBody, { ...full(), metadata: { ['k'.repeat(40)]: 'v' } });
    wantInvalid(createBody, { ...full(), metadata: { ['k'.repeat(41)]: 'v' } });
    wantValid(createBody, { ...full(), metadata: { note: 'v'.repeat(500) } });
    wantInvalid(createBody, { ...full(), metadata: { note: 'v'.repeat(501) } });
    wantInvalid(createBody, { ...full(), metadata: 'orderId=1' });
  });

  it('the rules are stated: open verification closed, in-review conflict', () => {
    const text = op('post /verifications').operation.description;
    expect(text).toMatch(/`created`/);
    expect(text).toMatch(/result: null|`result` (is )?`?null/);
    expect(text).toMatch(/open verification[^.]*`created`[^.]*`started`[^.]*phone number[^.]*closed/is);
    expect(text).toMatch(/`inReview`[^.]*same phone number[^.]*`externalUserId`[^.]*409/is);
  });
});

describe('create verification response', () => {
  const schema = responseSchema('post /verifications', '201');
  const created = () => example('CreatedVerificationFull');

  it('is the verification without updatedAt', () => {
    for (const name of ['CreatedVerificationFull', 'CreatedVerificationMinimal', 'CreatedVerificationLegacy']) {
      wantValid(createdVerification, example(name), name);
      expect(example(name)).not.toHaveProperty('updatedAt');
    }
    wantInvalid(createdVerification, { ...created(), updatedAt: TIMESTAMP });
    expectDocumented(Object.keys(schema.properties), VERIFICATION_FIELDS, 'fields of CreatedVerification');
  });

  it('is always in status created, with no user yet', () => {
    for (const status of STATUSES.filter((s) => s !== 'created'))
      wantInvalid(createdVerification, { ...created(), status }, status);
    wantInvalid(createdVerification, { ...created(), userId: USER_ID });
    wantInvalid(createdVerification, { ...created(), previousUserId: USER_ID });
  });

  // "available only when status is `completed`" / "`reverted`": at creation
  // neither is available. That the answer still sends both, as null, is not
  // documented: it is assumed (P9), held by the schema and marked where the
  // create answer and each field are described.
  it('always sends userId and previousUserId, as null, marked as assumed (P9)', () => {
    wantValid(createdVerification, { ...created(), userId: null, previousUserId: null });
    wantInvalid(createdVerification, without(created(), 'userId'), 'without userId');
    wantInvalid(createdVerification, without(created(), 'previousUserId'), 'without previousUserId');
    expect(requiredOf(schema)).toContain('userId');
    expect(requiredOf(schema)).toContain('previousUserId');
    const marker = 'Assumed ([P9](assumptions.html#P9)): ';
    const paragraphs = (text: string) => text.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' '));
    const statement = paragraphs(schema.description).filter((p) => /always sent/.test(p));
    expect(statement.length, 'a paragraph of the create answer saying both are always sent').toBe(1);
    expect(statement[0]).toContain(marker);
    expect(statement[0]).toMatch(/`userId` and `previousUserId`/);
    expect(schema.description).not.toMatch(/if sent/);
    for (const field of ['userId', 'previousUserId']) {
      const description = deref(doc, schema.properties[field]).description as string;
      expect(
        paragraphs(description).find((p) => /always sent/.test(p)),
        field,
      ).toContain(marker);
    }
  });

  it('has collectedRequirements entries with result null', () => {
    wantValid(createdVerification, { ...created(), collectedRequirements: [{ type: 'phoneNumbers', result: null }] });
    wantInvalid(createdVerification, { ...created(), collectedRequirements: [collected('firstAndLastName')] });
    wantInvalid(createdVerification, {
      ...created(),
      collectedRequirements: [{ type: 'phoneNumbers', result: null, verified: true }],
    });
    wantInvalid(createdVerification, {
      ...created(),
      collectedRequirements: [{ type: 'selfie', result: null, verified: false }],
    });
  });

  it('marks the deprecated fields deprecated', () => {
    const problems = deprecationProblems('CreatedVerification', schema.properties, DEPRECATED);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('does not re-check the create limits on the echoed fields, but keeps their documented types', () => {
    wantValid(createdVerification, { ...created(), reason: 'r'.repeat(201), metadata: { k: 'v'.repeat(501) } });
    wantValid(createdVerification, { ...created(), redirectUrl: 'northwind-app://verification/done' });
    wantInvalid(createdVerification, { ...created(), externalUserId: 'nope' });
  });
});

describe('conflicts (409)', () => {
  it.each(['post /verifications', 'post /verifications/revert'])(
    '%s answers 409 with an error message and an example',
    (key) => {
      const validate = response(key, '409');
      const media = deref(doc, op(key).operation.responses['409']).content['application/json'];
      const examples = Object.values<Json>(media.examples).map((e) => deref(doc, e).value);
      expect(examples.length).toBeGreaterThan(0);
      for (const value of examples) {
        wantValid(validate, value);
        expect(value.message).toEqual(expect.any(String));
        if ('statusCode' in value) expect(value.statusCode).toBe(409);
      }
      wantValid(validate, { message: 'Conflict' });
      wantInvalid(validate, {}, 'no message (P2)');
      wantInvalid(validate, { message: 409 });
    },
  );
});

describe('revert verification (operation 6)', () => {
  const entry = op('post /verifications/revert');

  it('is marked beta', () => {
    expect(entry.operation['x-beta']).toBe(true);
    expect(entry.operation.summary).toMatch(/beta/i);
    expect(entry.operation.description).toMatch(/beta/i);
  });

  it('takes {verificationId, author} and answers {id}', () => {
    const request = body('post /verifications/revert');
    expectDocumented(
      Object.keys(bodySchema('post /verifications/revert').properties),
      REVERT_FIELDS,
      'fields of VerificationRevert',
    );
    // Both required: the documents mark neither optional (P54).
    expect(sorted(bodySchema('post /verifications/revert').required)).toEqual(['author', 'verificationId']);
    wantValid(request, example('RevertVerificationRequest'));
    wantValid(request, { verificationId: 'v-1', author: 'fraud-team' });
    wantInvalid(request, { verificationId: 'v-1' });
    wantInvalid(request, { author: 'fraud-team' });
    wantInvalid(request, { verificationId: 1, author: 'fraud-team' });
    const result = response('post /verifications/revert', '200');
    wantValid(result, example('RevertVerificationResult'));
    wantValid(result, { id: 'v-1' });
    wantInvalid(result, {});
    wantInvalid(result, { id: 1 });
  });

  it('states its four rules', () => {
    const text = entry.operation.description;
    expect(text).toMatch(/`completed`/);
    expect(text).toMatch(/`waitingForUserInput`[^.]*ID scan/i);
    expect(text).toMatch(/409/);
    expect(text).toMatch(/detached/i);
    expect(text).toMatch(/no other\s+successfully\s+completed\s+verification/i);
    expect(text).toMatch(/`externalUserId`[\s\S]*phone number[\s\S]*first name[\s\S]*last name/i);
    expect(text).toMatch(/deleted[^.]*`user\.deleted`/is);
    expect(text).toMatch(/`reverted`/);
    expect(text).toMatch(/`verification\.updated`/);
  });
});
