// The partner integration API document holds every fact of the service's
// partner documentation; this file: the Verification record: its fields,
// `userId` and `previousUserId`, and each kind of `collectedRequirements`
// entry. Each expectation restates one of those facts (or, where the
// documentation is silent, the decision recorded in openapi/DECISIONS.md);
// dropping or loosening it in openapi/partner makes a test fail.
import { describe, expect, it } from 'vitest';
import { deref, type Json } from './helpers/openapi.js';
import { deprecationProblems } from './helpers/partner-additions.js';
import {
  doc,
  STATUSES,
  REQUIREMENT_TYPES,
  DEPRECATED,
  VERIFICATION_FIELDS,
  VERIFICATION_OPTIONAL,
  DOCUMENT_RESULT_FIELDS,
  USER_ID,
  responseSchema,
  example,
  without,
  sorted,
  expectDocumented,
  expectDocumentedValues,
  wantValid,
  wantInvalid,
  verification,
  completed,
  collected,
  withCollected,
} from './helpers/partner-document.js';

describe('Verification', () => {
  const schema = responseSchema('get /verifications/{verificationId}', '200');

  it('has every documented field', () => {
    expectDocumented(Object.keys(schema.properties), VERIFICATION_FIELDS, 'fields of Verification');
    wantValid(verification, completed());
  });

  it('always sends the fields that are not optional create input; the echoed ones may be absent (P8)', () => {
    for (const field of VERIFICATION_FIELDS) {
      const optional = VERIFICATION_OPTIONAL.includes(field);
      expect(
        verification(without(completed(), field)),
        `${field} ${optional ? 'may be absent' : 'is always sent (required)'}`,
      ).toBe(optional);
    }
    for (const name of ['Verification', 'CreatedVerification', 'VerificationEventData'])
      for (const field of ['phoneNumber', 'isPhoneNumberVerified', 'requireFirstAndLastName', 'metadata'])
        expect(doc.components.schemas[name].required, `${name}.${field}`).not.toContain(field);
  });

  it('types each field as documented', () => {
    const wrong: Record<string, unknown[]> = {
      id: [1],
      url: [1],
      phoneNumber: [4915112345678],
      isPhoneNumberVerified: ['true'],
      phoneNumbers: ['+4915112345678'],
      firstName: [1],
      lastName: [1],
      requireFirstAndLastName: ['yes'],
      requirements: [{ type: 'document' }],
      collectedRequirements: [{}],
      externalUserId: ['not-a-uuid', 12],
      redirectUrl: [1],
      errorRedirectUrl: [1],
      reason: [1],
      author: [1],
      status: ['pending', 'COMPLETED'],
      metadata: ['text'],
      validTo: ['2026-03-15'],
      createdAt: ['yesterday'],
      updatedAt: ['14/03/2026'],
      userId: [1],
      previousUserId: [1],
    };
    for (const [field, values] of Object.entries(wrong)) {
      for (const value of values)
        wantInvalid(verification, { ...completed(), [field]: value }, `${field}=${JSON.stringify(value)}`);
    }
    wantValid(verification, {
      ...completed(),
      phoneNumber: '+4915112345678',
      isPhoneNumberVerified: true,
      requireFirstAndLastName: false,
    });
    // Echoed optional input may be null as well as absent (P8).
    for (const field of ['firstName', 'lastName', 'reason', 'author', 'metadata', 'errorRedirectUrl'])
      wantValid(verification, { ...completed(), [field]: null }, `${field}=null`);
  });

  it('phoneNumbers are {phoneNumber, isVerified}', () => {
    const entry = { phoneNumber: '+4915112345678', isVerified: true };
    wantValid(verification, { ...completed(), phoneNumbers: [entry] });
    wantInvalid(verification, { ...completed(), phoneNumbers: [{ ...entry, isVerified: 'yes' }] });
    wantInvalid(verification, { ...completed(), phoneNumbers: [without(entry, 'isVerified')] });
    wantInvalid(verification, { ...completed(), phoneNumbers: [without(entry, 'phoneNumber')] });
  });

  it('takes status from the nine documented values', () => {
    expectDocumentedValues(deref(doc, schema.properties.status).enum, STATUSES, 'values of VerificationStatus');
    for (const status of STATUSES) {
      const value = {
        ...completed(),
        status,
        userId: status === 'completed' ? USER_ID : null,
        previousUserId: status === 'reverted' ? USER_ID : null,
      };
      wantValid(verification, value, status);
    }
  });

  it('requirements take the four types', () => {
    expectDocumentedValues(
      deref(doc, deref(doc, schema.properties.requirements.items).properties.type).enum,
      REQUIREMENT_TYPES,
      'values of RequirementType',
    );
    wantValid(verification, { ...completed(), requirements: REQUIREMENT_TYPES.map((type) => ({ type })) });
    wantInvalid(verification, { ...completed(), requirements: [{ type: 'selfie' }] });
    wantInvalid(verification, { ...completed(), requirements: [{}] });
  });

  it('marks phoneNumber, isPhoneNumberVerified and requireFirstAndLastName deprecated, and otherwise only what ADDED_DEPRECATIONS lists', () => {
    const problems = deprecationProblems('Verification', schema.properties, DEPRECATED);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('metadata in an answer is any object of partner key-value data: the create bounds are not re-checked (P6)', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'x']));
    wantValid(verification, { ...completed(), metadata: keys(51) });
    wantValid(verification, {
      ...completed(),
      metadata: { ['a'.repeat(41)]: 'x', v: 'y'.repeat(501), n: 3, nested: { a: true } },
    });
    wantInvalid(verification, { ...completed(), metadata: 'orderId=1' });
    expect(deref(doc, schema.properties.metadata)).not.toHaveProperty('maxProperties');
  });

  it('reason and author in an answer are not re-checked against the create limits (P16)', () => {
    wantValid(verification, { ...completed(), reason: 'r'.repeat(201), author: 'a'.repeat(101) });
    wantInvalid(verification, { ...completed(), reason: 7 });
  });

  it('takes the address fields as the service sends them: no uri format in answers (P29)', () => {
    for (const field of ['url', 'redirectUrl', 'errorRedirectUrl']) {
      wantValid(verification, { ...completed(), [field]: 'app.northwind-mobility.example/verification/done' }, field);
      wantInvalid(verification, { ...completed(), [field]: 42 }, field);
      expect(deref(doc, schema.properties[field]).format, field).toBeUndefined();
    }
  });

  it('states where the end user is sent on status change and on error', () => {
    expect(schema.properties.redirectUrl.description).toMatch(/inReview[\s\S]*completed[\s\S]*declined/);
    expect(schema.properties.errorRedirectUrl.description).toMatch(/error/i);
    expect(schema.properties.url.description).toMatch(/token/i);
  });
});

describe('Verification userId and previousUserId', () => {
  const at = (status: string, userId: unknown, previousUserId: unknown) => ({
    ...completed(),
    status,
    userId,
    previousUserId,
  });

  it('completed carries a userId string and no previousUserId', () => {
    wantValid(verification, at('completed', USER_ID, null));
    wantInvalid(verification, at('completed', null, null), 'userId null');
    wantInvalid(verification, without(at('completed', USER_ID, null), 'userId'), 'userId absent');
    wantInvalid(verification, at('completed', USER_ID, USER_ID), 'previousUserId set');
  });

  it('reverted carries a previousUserId (null when reverted from waitingForUserInput) and no userId', () => {
    wantValid(verification, example('VerificationReverted'));
    wantValid(verification, at('reverted', null, USER_ID));
    // Revert rule 1: a waitingForUserInput verification had no user yet (P9).
    wantValid(verification, at('reverted', null, null), 'previousUserId null');
    wantInvalid(verification, at('reverted', null, 42), 'previousUserId a number');
    wantInvalid(verification, without(at('reverted', null, USER_ID), 'previousUserId'), 'previousUserId absent');
    wantInvalid(verification, at('reverted', USER_ID, USER_ID), 'userId set');
  });

  it.each(STATUSES.filter((s) => s !== 'completed' && s !== 'reverted'))('%s carries neither', (status) => {
    wantValid(verification, at(status, null, null));
    wantInvalid(verification, at(status, USER_ID, null), 'userId set');
    wantInvalid(verification, at(status, null, USER_ID), 'previousUserId set');
  });

  it('both are declared string or null', () => {
    const props = responseSchema('get /verifications/{verificationId}', '200').properties;
    expect(sorted(props.userId.type)).toEqual(['null', 'string']);
    expect(sorted(props.previousUserId.type)).toEqual(['null', 'string']);
  });

  it('the documented examples of each status are valid', () => {
    for (const name of [
      'VerificationCompleted',
      'VerificationStarted',
      'VerificationWaitingForUserInput',
      'VerificationInReview',
      'VerificationReverted',
    ]) {
      wantValid(verification, example(name), name);
    }
  });
});

describe('collectedRequirements', () => {
  it('each entry type is one of the four requirement types', () => {
    wantValid(verification, completed());
    expect(completed().collectedRequirements.map((c: Json) => c.type)).toEqual(REQUIREMENT_TYPES);
    wantInvalid(verification, withCollected({ type: 'selfie', result: null, verified: false }));
  });

  it('result may be null (not yet collected) for every type', () => {
    for (const type of REQUIREMENT_TYPES) {
      const entry = type === 'phoneNumbers' ? { type, result: null } : { type, result: null, verified: false };
      wantValid(verification, withCollected(entry), type);
    }
  });

  it('the result shape follows the type: each documented member typed as its type says', () => {
    // Result objects are open (extra fields tolerated) and their members may be
    // absent (P8), so a result is told from another only by the types of its members.
    for (const type of REQUIREMENT_TYPES) {
      const entry = collected(type);
      wantValid(verification, withCollected(entry), type);
      for (const member of Object.keys(entry.result))
        wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [member]: 7 } }), member);
      wantInvalid(verification, withCollected({ ...entry, result: 'collected' }), `${type} with a string result`);
    }
  });

  it('firstAndLastName result is {firstName, lastName}, each may be absent or null (P8)', () => {
    const entry = collected('firstAndLastName');
    expect(entry.result).toEqual({ firstName: expect.any(String), lastName: expect.any(String) });
    for (const field of ['firstName', 'lastName']) {
      wantValid(verification, withCollected({ ...entry, result: without(entry.result, field) }), `without ${field}`);
      wantValid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: null } }), `${field} null`);
      wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: 1 } }), field);
    }
  });

  it('dateOfBirth result is {dateOfBirth} as YYYY-MM-DD, which may be absent or null (P8)', () => {
    const entry = collected('dateOfBirth');
    wantValid(verification, withCollected({ ...entry, result: { dateOfBirth: '1991-07-23' } }));
    for (const bad of ['23.07.1991', '1991-07-23T00:00:00.000Z', 19910723]) {
      wantInvalid(verification, withCollected({ ...entry, result: { dateOfBirth: bad } }), String(bad));
    }
    wantValid(verification, withCollected({ ...entry, result: {} }));
    wantValid(verification, withCollected({ ...entry, result: { dateOfBirth: null } }));
  });

  it('document result has its eleven fields, strings, each may be absent or null (P8)', () => {
    const entry = collected('document');
    const resultSchema = deref(doc, doc.components.schemas.CollectedDocument).properties.result;
    expectDocumented(
      Object.keys(resultSchema.properties),
      DOCUMENT_RESULT_FIELDS,
      'fields of a collected document result',
    );
    wantValid(
      verification,
      withCollected({ ...entry, result: { ...entry.result, issuingAuthority: null, placeOfIssue: null } }),
    );
    for (const field of DOCUMENT_RESULT_FIELDS) {
      wantValid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: null } }), `${field} null`);
      wantValid(verification, withCollected({ ...entry, result: without(entry.result, field) }), `without ${field}`);
      wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: 7 } }), `${field}=7`);
    }
  });

  it('document result dates take any string: their form is not documented (P12)', () => {
    const entry = collected('document');
    for (const field of ['expiryAt', 'issuedAt']) {
      for (const ok of ['2031-05-11T00:00:00.000Z', '2031-05-11', '11/05/2031', '2031-05']) {
        wantValid(
          verification,
          withCollected({ ...entry, result: { ...entry.result, [field]: ok } }),
          `${field} ${ok}`,
        );
      }
      wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: 20310511 } }), field);
    }
  });

  it('phoneNumbers result is {objects: [{phoneNumber}]}, each may be absent or null (P8)', () => {
    const entry = collected('phoneNumbers');
    wantValid(
      verification,
      withCollected({ type: 'phoneNumbers', result: { objects: [{ phoneNumber: '+4915112345678' }] } }),
    );
    wantInvalid(verification, withCollected({ ...entry, result: { objects: ['+4915112345678'] } }));
    wantInvalid(verification, withCollected({ ...entry, result: { objects: [{ phoneNumber: 4915112345678 }] } }));
    wantValid(verification, withCollected({ ...entry, result: { objects: [{}] } }));
    wantValid(verification, withCollected({ ...entry, result: { objects: null } }));
    wantValid(verification, withCollected({ ...entry, result: { phoneNumbers: [] } }), 'no objects, an added field');
  });

  it('verified is a boolean on every type except phoneNumbers, where it is absent', () => {
    for (const type of REQUIREMENT_TYPES) {
      const entry = collected(type);
      if (type === 'phoneNumbers') {
        expect(entry).not.toHaveProperty('verified');
        wantValid(verification, withCollected(entry));
        wantInvalid(verification, withCollected({ ...entry, verified: true }), 'phoneNumbers with verified');
        wantInvalid(verification, withCollected({ ...entry, verified: false }), 'phoneNumbers with verified');
      } else {
        wantValid(verification, withCollected({ ...entry, verified: false }), type);
        wantInvalid(verification, withCollected({ ...entry, verified: 'yes' }), type);
        wantInvalid(verification, withCollected(without(entry, 'verified')), `${type} without verified (P11)`);
      }
    }
  });
});
