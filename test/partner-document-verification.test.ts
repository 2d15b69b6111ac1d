// The partner Verification: its fields, `userId` and `previousUserId` by status (in an
// answer, in webhook data, and in `narrowVerification`), each `collectedRequirements` kind.
import { describe, expect, it } from 'vitest';
import { narrowVerification } from '../src/partner.js';
import { ABSENT, checkFieldFacts, type Json, wantInvalid, wantValid } from './helpers/openapi.js';
import * as partner from './helpers/partner-document.js';

describe('Verification', () => {
  const schema = partner.responseSchema('get /verifications/{verificationId}', '200');

  it('always sends the fields that are not optional create input; the echoed ones may be absent (P8)', () => {
    for (const field of partner.FIELDS.Verification) {
      const optional = partner.VERIFICATION_OPTIONAL.includes(field);
      expect(
        partner.verification(partner.without(partner.completed(), field)),
        `${field} ${optional ? 'may be absent' : 'is always sent (required)'}`,
      ).toBe(optional);
    }
    for (const name of ['Verification', 'CreatedVerification', 'VerificationEventData'])
      for (const field of ['phoneNumber', 'isPhoneNumberVerified', 'requireFirstAndLastName', 'metadata'])
        expect(partner.doc.components.schemas[name].required, `${name}.${field}`).not.toContain(field);
  });

  // Echoed optional input may be null as well as absent (P8); in an answer the
  // create limits are not re-checked (P6, P16) and addresses take no uri format (P29).
  const entry = { phoneNumber: '+4915112345678', isVerified: true };
  const address = 'app.northwind-mobility.example/verification/done';
  // Metadata beyond the create bounds, which an answer does not re-check (P6).
  const keys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'x']));
  const bigMetadata = { ['a'.repeat(41)]: 'x', v: 'y'.repeat(501), n: 3, nested: { a: true } };
  const notRequirements = [{ type: 'document' }, [{ type: 'selfie' }], [{}], 'document'];
  checkFieldFacts(partner.verification, partner.completed, [
    ['L29', 'id', [], [1]],
    ['L30 P29', 'url', [address], [1, 42]],
    ['L31', 'phoneNumber', ['+4915112345678'], [4915112345678]],
    ['L32', 'isPhoneNumberVerified', [true], ['true']],
    ['L33 P8', 'phoneNumbers', [[entry], null], ['+4915112345678', ...phoneEntryBreaches(entry)]],
    ['L34 P8', 'firstName', [null], [1]],
    ['L34 P8', 'lastName', [null], [1]],
    ['L35', 'requireFirstAndLastName', [false], ['yes']],
    ['L36 P8', 'requirements', [null, partner.REQUIREMENT_TYPES.map((type) => ({ type }))], notRequirements],
    ['L37', 'collectedRequirements', [], [[{}]]],
    ['L40', 'externalUserId', [], ['not-a-uuid', 12]],
    ['L41 P29', 'redirectUrl', [address], [1, 42]],
    ['L42 P8 P29', 'errorRedirectUrl', [null, address], [1, 42]],
    ['L43 P8 P16', 'reason', [null, 'r'.repeat(201)], [1, 7]],
    ['L44 P8 P16', 'author', [null, 'a'.repeat(101)], [1]],
    ['L45', 'status', [], ['pending', 'COMPLETED']],
    ['L46 P6 P8', 'metadata', [null, keys, bigMetadata], ['text', 'orderId=1']],
    ['L47', 'validTo', [], ['2026-03-15']],
    ['L48', 'createdAt', [], ['yesterday']],
    ['L48', 'updatedAt', [], ['14/03/2026']],
    ['L38', 'userId', [], [1]],
    ['L39', 'previousUserId', [], [1]],
  ]);

  it('states where the end user is sent on status change and on error', () => {
    expect(schema.properties.redirectUrl.description).toMatch(/inReview[\s\S]*completed[\s\S]*declined/);
    expect(schema.properties.errorRedirectUrl.description).toMatch(/error/i);
    expect(schema.properties.url.description).toMatch(/token/i);
  });
});

/** Phone number entries missing or mistyping a member (L33). */
function phoneEntryBreaches(entry: Json): Json[] {
  return [[{ ...entry, isVerified: 'yes' }], ...['isVerified', 'phoneNumber'].map((m) => [partner.without(entry, m)])];
}

describe('userId and previousUserId by status, in an answer and in webhook data (L38-L39, L223)', () => {
  const withIds = (value: Json, status: string, userId: unknown, previousUserId: unknown) =>
    Object.fromEntries(Object.entries({ ...value, status, userId, previousUserId }).filter(([, v]) => v !== ABSENT));
  // Status, userId, previousUserId, and whether a Verification answer and
  // webhook data take them: the data leaves out the ids that do not apply
  // ("only when completed", "only when reverted"); an answer always sends both.
  const CASES: [string, unknown, unknown, boolean, boolean][] = [
    ['completed', partner.USER_ID, null, true, true],
    ['completed', null, null, false, false],
    ['completed', ABSENT, null, false, false],
    ['completed', ABSENT, ABSENT, false, false],
    ['completed', partner.USER_ID, partner.USER_ID, false, false],
    ['reverted', null, partner.USER_ID, true, true],
    // Revert rule 1: a waitingForUserInput verification had no user yet (P9).
    ['reverted', null, null, true, true],
    ['reverted', null, 42, false, false],
    ['reverted', null, ABSENT, false, false],
    ['reverted', partner.USER_ID, partner.USER_ID, false, false],
    ...partner.STATUSES.filter((s) => s !== 'completed' && s !== 'reverted').flatMap(
      (status): [string, unknown, unknown, boolean, boolean][] => [
        [status, null, null, true, true],
        [status, ABSENT, ABSENT, false, true],
        [status, partner.USER_ID, null, false, false],
        [status, partner.USER_ID, ABSENT, false, false],
        [status, null, partner.USER_ID, false, false],
        [status, ABSENT, partner.USER_ID, false, false],
      ],
    ),
  ];

  it.each(CASES)(
    '%s, userId %s, previousUserId %s: answer %s, webhook %s',
    (status, userId, previousUserId, inAnswer, inWebhook) => {
      const value = withIds(partner.completed(), status, userId, previousUserId);
      expect(partner.verification(value), 'answer').toBe(inAnswer);
      const event = partner.webhookExample('verification.updated');
      const data = withIds(event.data, status, userId, previousUserId);
      expect(partner.webhookValidator('verification.updated')({ ...event, data }), 'webhook data').toBe(inWebhook);
      // narrowVerification judges ids of the declared types (string or null) as the schema does.
      if ([userId, previousUserId].every((id) => id === null || typeof id === 'string'))
        expect(narrowVerification(value as Parameters<typeof narrowVerification>[0])).toBe(
          inAnswer ? value : undefined,
        );
    },
  );

  it.each(['Completed', 'Reverted', 'Started', 'InReview', 'WaitingForUserInput'])(
    'the example Verification%s is valid and narrowed',
    (status) => {
      const value = partner.example(`Verification${status}`);
      wantValid(partner.verification, value);
      expect(narrowVerification(value as Parameters<typeof narrowVerification>[0])).toBe(value);
    },
  );
});

describe('collectedRequirements (L50-L56)', () => {
  const inVerification = (entry: Json) => partner.verification(partner.withCollected(entry));
  const documentResult = () => partner.collected('document').result;
  /** Copies of a result with each member in turn of another type. */
  const typedAs = (result: Json, value: unknown, members = Object.keys(result)) =>
    members.map((member) => ({ ...result, [member]: value }));

  it('each entry type is one of the four requirement types; a document result has its eleven fields', () => {
    wantValid(partner.verification, partner.completed());
    expect(partner.completed().collectedRequirements.map((c: Json) => c.type)).toEqual(partner.REQUIREMENT_TYPES);
    wantInvalid(partner.verification, partner.withCollected({ type: 'selfie', result: null, verified: false }));
    const resultSchema = partner.resolve(partner.doc.components.schemas.CollectedDocument).properties.result;
    partner.expectFields(resultSchema, 'CollectedDocument.result');
    expect(partner.collected('firstAndLastName').result).toEqual({
      firstName: expect.any(String),
      lastName: expect.any(String),
    });
    expect(partner.collected('phoneNumbers')).not.toHaveProperty('verified');
  });

  /** Results of each type beyond the example's: valid ones and invalid ones (L53-L56). */
  const RESULTS: Record<string, { valid: () => Json[]; invalid: () => Json[] }> = {
    firstAndLastName: {
      valid: () => partner.gaps(partner.collected('firstAndLastName').result),
      invalid: () => typedAs(partner.collected('firstAndLastName').result, 1),
    },
    dateOfBirth: {
      valid: () => [{ dateOfBirth: '1991-07-23' }, {}, { dateOfBirth: null }],
      invalid: () => ['23.07.1991', '1991-07-23T00:00:00.000Z', 19910723].map((dateOfBirth) => ({ dateOfBirth })),
    },
    // The last two may be null (L55); the dates take any string, their form is not documented (P12).
    document: {
      valid: () => [
        ...partner.gaps(documentResult(), partner.FIELDS['CollectedDocument.result']),
        { ...documentResult(), issuingAuthority: null, placeOfIssue: null },
        ...['2031-05-11T00:00:00.000Z', '2031-05-11', '11/05/2031', '2031-05'].flatMap((date) => [
          { ...documentResult(), expiryAt: date },
          { ...documentResult(), issuedAt: date },
        ]),
      ],
      invalid: () => [
        ...typedAs(documentResult(), 7, partner.FIELDS['CollectedDocument.result']),
        { ...documentResult(), expiryAt: 20310511 },
        { ...documentResult(), issuedAt: 20310511 },
      ],
    },
    phoneNumbers: {
      valid: () => [
        { objects: [{ phoneNumber: '+4915112345678' }] },
        { objects: [{}] },
        { objects: null },
        // No objects, an added field.
        { phoneNumbers: [] },
      ],
      invalid: () => [{ objects: ['+4915112345678'] }, { objects: [{ phoneNumber: 4915112345678 }] }],
    },
  };

  // Result objects are open (extra fields tolerated) and their members may be
  // absent or null (P8), so a result is told from another only by the types of
  // its members. `verified` is a boolean on every type but phoneNumbers,
  // where it is absent (P11).
  describe.each(partner.REQUIREMENT_TYPES)('%s', (type) => {
    const phones = type === 'phoneNumbers';
    const entry = () => (phones ? { type, result: null } : { type, result: null, verified: false });
    checkFieldFacts(inVerification, entry, [['L50', 'result', [null], []]]);
    checkFieldFacts(inVerification, () => partner.collected(type), [
      [
        'L50',
        'result',
        [partner.collected(type).result, ...RESULTS[type].valid()],
        ['collected', ...typedAs(partner.collected(type).result, 7), ...RESULTS[type].invalid()],
      ],
      ['L50 P11', 'verified', phones ? [ABSENT] : [false], phones ? [true, false] : ['yes', ABSENT]],
    ]);
  });
});
