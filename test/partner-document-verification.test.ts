// The partner integration API document holds every fact of the service's
// partner documentation; this file: the Verification record: its fields,
// `userId` and `previousUserId`, and each kind of `collectedRequirements`
// entry. Each expectation restates one of those facts (or, where the
// documentation is silent, the decision recorded in openapi/DECISIONS.md);
// dropping or loosening it in openapi/partner makes a test fail.
import { describe, expect, it } from 'vitest';
import { deref, type Json } from './helpers/openapi.js';
import {
  doc,
  checkFieldFacts,
  STATUSES,
  REQUIREMENT_TYPES,
  VERIFICATION_OPTIONAL,
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
  FIELDS,
} from './helpers/partner-document.js';

describe('Verification', () => {
  const schema = responseSchema('get /verifications/{verificationId}', '200');

  it('has every documented field', () => {
    expectDocumented(Object.keys(schema.properties), FIELDS.Verification, 'fields of Verification');
    wantValid(verification, completed());
  });

  it('always sends the fields that are not optional create input; the echoed ones may be absent (P8)', () => {
    for (const field of FIELDS.Verification) {
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

  // Echoed optional input may be null as well as absent (P8); in an answer the
  // create limits are not re-checked (P6, P16) and addresses take no uri format (P29).
  const entry = { phoneNumber: '+4915112345678', isVerified: true };
  const address = 'app.northwind-mobility.example/verification/done';
  checkFieldFacts(verification, completed, [
    ['L29', 'id', [], [1]],
    ['L30 P29', 'url', [address], [1, 42]],
    ['L31', 'phoneNumber', ['+4915112345678'], [4915112345678]],
    ['L32', 'isPhoneNumberVerified', [true], ['true']],
    ['L33 P8', 'phoneNumbers', [[entry], null], ['+4915112345678', ...phoneEntryBreaches(entry)]],
    ['L34 P8', 'firstName', [null], [1]],
    ['L34 P8', 'lastName', [null], [1]],
    ['L35', 'requireFirstAndLastName', [false], ['yes']],
    ['L36 P8', 'requirements', [null, REQUIREMENT_TYPES.map((type) => ({ type }))], requirementBreaches()],
    ['L37', 'collectedRequirements', [], [[{}]]],
    ['L40', 'externalUserId', [], ['not-a-uuid', 12]],
    ['L41 P29', 'redirectUrl', [address], [1, 42]],
    ['L42 P8 P29', 'errorRedirectUrl', [null, address], [1, 42]],
    ['L43 P8 P16', 'reason', [null, 'r'.repeat(201)], [1, 7]],
    ['L44 P8 P16', 'author', [null, 'a'.repeat(101)], [1]],
    ['L45', 'status', [], ['pending', 'COMPLETED']],
    ['L46 P6 P8', 'metadata', [null, ...metadataNotRechecked()], ['text', 'orderId=1']],
    ['L47', 'validTo', [], ['2026-03-15']],
    ['L48', 'createdAt', [], ['yesterday']],
    ['L48', 'updatedAt', [], ['14/03/2026']],
    ['L38', 'userId', [], [1]],
    ['L39', 'previousUserId', [], [1]],
  ]);

  it('declares no uri format on the addresses and no key bound on metadata in answers (P29, P6)', () => {
    for (const field of ['url', 'redirectUrl', 'errorRedirectUrl'])
      expect(deref(doc, schema.properties[field]).format, field).toBeUndefined();
    expect(deref(doc, schema.properties.metadata)).not.toHaveProperty('maxProperties');
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
  });

  it('states where the end user is sent on status change and on error', () => {
    expect(schema.properties.redirectUrl.description).toMatch(/inReview[\s\S]*completed[\s\S]*declined/);
    expect(schema.properties.errorRedirectUrl.description).toMatch(/error/i);
    expect(schema.properties.url.description).toMatch(/token/i);
  });
});

/** Phone number entries missing or mistyping a member (L33). */
function phoneEntryBreaches(entry: Json): Json[] {
  return [[{ ...entry, isVerified: 'yes' }], [without(entry, 'isVerified')], [without(entry, 'phoneNumber')]];
}
/** Requirements that are no list of the four types (L36). */
function requirementBreaches(): Json[] {
  return [{ type: 'document' }, [{ type: 'selfie' }], [{}], 'document'];
}
/** Metadata beyond the create bounds, which an answer does not re-check (P6). */
function metadataNotRechecked(): Json[] {
  const keys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'x']));
  return [keys, { ['a'.repeat(41)]: 'x', v: 'y'.repeat(501), n: 3, nested: { a: true } }];
}

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
      FIELDS['CollectedDocument.result'],
      'fields of a collected document result',
    );
    wantValid(
      verification,
      withCollected({ ...entry, result: { ...entry.result, issuingAuthority: null, placeOfIssue: null } }),
    );
    for (const field of FIELDS['CollectedDocument.result']) {
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
