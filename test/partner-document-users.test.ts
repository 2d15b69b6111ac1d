// Partner users and their documents, the sub-resources of users and verifications, the
// batch of external users (operation 16), and the webhook records (operations 11 and 18).
import { describe, expect, it } from 'vitest';
import { ABSENT, checkFieldFacts, type FieldFact, type Json, wantInvalid, wantValid } from './helpers/openapi.js';
import * as partner from './helpers/partner-document.js';

const { EVENTS, example, gaps, resolve, response, TIMESTAMP, UUID, webhookExample, without } = partner;

describe('users', () => {
  const list = response('get /users', '200');
  const details = response('get /users/{userId}', '200');
  const full = () => example('UserDetailsFull');
  const page = () => example('UserListPage');

  it('list item has id, phoneNumbers, externalUsers, createdAt and updatedAt (L58-L64)', () => {
    const item = resolve(partner.responseSchema('get /users', '200').properties.users.items);
    partner.expectFields(item, 'User');
    wantValid(list, page());
    wantInvalid(list, without(page(), 'count'));
    expect(page().users[0].externalUsers.length).toBeGreaterThan(1);
  });

  // Every member of a phone number or external user may be absent or null (P8).
  const phone = page().users[0].phoneNumbers[0];
  checkFieldFacts(
    (user: Json) => list({ users: [user], count: 1 }),
    () => page().users[0],
    [
      ['L61', 'id', [], [ABSENT]],
      [
        'L62 P8',
        'phoneNumbers',
        [[{ phoneNumber: '+33612345678', createdAt: TIMESTAMP, verified: false }], ...gaps(phone).map((e) => [e])],
        [
          [{ ...phone, phoneNumber: '0612345678' }],
          [{ ...phone, verified: 'yes' }],
          [{ ...phone, createdAt: 'March' }],
        ],
      ],
      [
        'L63 P8',
        'externalUsers',
        [[{ id: UUID }], [{ id: null, createdAt: TIMESTAMP }]],
        [ABSENT, [{ id: 7, createdAt: TIMESTAMP }], [UUID]],
      ],
      ['L64', 'createdAt', [], [ABSENT]],
      ['L64', 'updatedAt', [], [ABSENT]],
    ],
  );

  // Details add firstName, lastName, dateOfBirth (optional), estimatedAge, image, names and documents.
  checkFieldFacts(details, full, [
    ['L69', 'firstName', [ABSENT], [null]],
    ['L69', 'lastName', [ABSENT], [7]],
    // No documented format: any string (L70).
    ['L70', 'dateOfBirth', [ABSENT, null, '1991-07-23', '23.07.1991'], [19910723]],
    ['L71', 'estimatedAge', partner.ESTIMATED_AGES, [ABSENT, 'over99', 'OVER_18', 'over40', 18]],
    ['L72', 'image', [], [ABSENT, 42, null]],
    [
      'L73 P8',
      'names',
      [[], ...gaps(full().names[0]).map((e) => [e])],
      [ABSENT, [{ ...full().names[0], createdAt: 'March' }]],
    ],
    ['L74', 'documents', [], [ABSENT, 'x']],
    ['L61', 'id', [], [ABSENT, 1]],
    ['L62', 'phoneNumbers', [], [ABSENT, 'x']],
    ['L63', 'externalUsers', [], [ABSENT, 'x']],
    ['L64', 'createdAt', [], [ABSENT, 'March']],
    ['L64', 'updatedAt', [], [ABSENT, 'March']],
  ]);

  it('estimatedAge takes the nine documented values at 99.5 % confidence; image is base64 (L71, L72)', () => {
    const props = partner.propsOf(partner.responseSchema('get /users/{userId}', '200'));
    partner.expectDocumentedValues(resolve(props.estimatedAge).enum, partner.ESTIMATED_AGES, 'values of EstimatedAge');
    expect(resolve(props.estimatedAge).description).toMatch(/99\.5\s*%/);
    expect(props.image).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    expect(full().names.length).toBeGreaterThan(1);
  });

  describe('documents (L76)', () => {
    const dates = ['2031-05-11T00:00:00.000Z', '2031-05-11'];
    const notDates = ['11/05/2031', '2031-13-11', ''];

    // issuingAuthority and placeOfIssue may be null, as on the collected document (P32).
    // Through the details answer, so the facts hold of the documents it sends.
    checkFieldFacts(
      (document: Json) => details({ ...full(), documents: [document] }),
      () => full().documents[0],
      [
        ...['id', 'firstName', 'lastName', 'dateOfBirth', 'placeOfBirth', 'nationality', 'serialNo'].map(
          (field): FieldFact => ['L76', field, [], [ABSENT, 1]],
        ),
        ['L76 P32', 'issuingAuthority', [null], [ABSENT, 1]],
        ['L76 P32', 'placeOfIssue', [null], [ABSENT, 1]],
        ['L76', 'type', partner.DOCUMENT_TYPES, [ABSENT, 'ID Card', 'passport', 'DRIVER_LICENSE']],
        ['L76', 'expiryAt', dates, [ABSENT, ...notDates]],
        ['L76', 'issuedAt', dates, [ABSENT, ...notDates]],
        ['L76', 'createdAt', [TIMESTAMP], [ABSENT, '2031-05-11']],
      ],
    );
  });
});

describe('user sub-resources', () => {
  checkFieldFacts(response('get /users/{userId}/shares', '200'), () => example('SharesShareholder'), [
    ['L82', 'isShareholder', [true], [ABSENT, 'true']],
    ['L82', 'sharesNumber', [250], [ABSENT, 1.5, '250']],
  ]);

  it('linked by device: {userId, linkedUsersByDevice: [{deviceId, users: [{userId}]}]}', () => {
    const linked = response('get /users/{userId}/linked-by-device', '200');
    const value = example('UserLinkedByDevice');
    wantValid(linked, value);
    wantValid(linked, example('UserLinkedByDeviceAlone'));
    // The queried user is in each device's list.
    for (const device of value.linkedUsersByDevice)
      expect(device.users.map((u: Json) => u.userId)).toContain(value.userId);
    wantInvalid(linked, without(value, 'userId'));
    wantInvalid(linked, without(value, 'linkedUsersByDevice'));
    wantInvalid(linked, { ...value, linkedUsersByDevice: [{ users: [{ userId: partner.USER_ID }] }] });
    wantInvalid(linked, { ...value, linkedUsersByDevice: [{ deviceId: 'd', users: [partner.USER_ID] }] });
    wantInvalid(linked, { ...value, linkedUsersByDevice: [{ deviceId: 'd' }] });
    expect(partner.responseSchema('get /users/{userId}/linked-by-device', '200').description).toMatch(/queried user/i);
  });

  it('fingerprints: {fingerprints: [{id, events: [{id, data}]}], count}, data free-form', () => {
    const prints = response('get /users/{userId}/fingerprints', '200');
    const value = example('FingerprintListPage');
    wantValid(prints, value);
    wantValid(prints, example('FingerprintListEmpty'));
    const withEvent = (event: Json) => ({ fingerprints: [{ id: 'fp', events: [event] }], count: 1 });
    wantValid(prints, withEvent({ id: 'e', data: { anything: { nested: [1, 'two', null] }, flag: true } }));
    wantValid(prints, withEvent({ id: 'e', data: {} }));
    wantInvalid(prints, withEvent({ id: 'e', data: 'free text' }));
    wantInvalid(prints, withEvent({ id: 'e' }));
    wantInvalid(prints, withEvent({ data: {} }));
    wantInvalid(prints, { fingerprints: [{ events: [] }], count: 0 });
    wantInvalid(prints, without(value, 'count'));
  });

  describe('batch external users (operation 16)', () => {
    // Takes {externalUsers: [{phoneNumber, externalUserId (uuid)}]}, every field required (L180, P54);
    // invalid numbers must be sendable: they are reported back in invalidPhoneNumbers (P17).
    const request = partner.body('post /users/external-users');
    checkFieldFacts(request, () => example('ExternalUsersRequest'), [['L180 P54', 'externalUsers', [], [ABSENT]]]);
    checkFieldFacts(
      (entry: Json) => request({ externalUsers: [entry] }),
      () => ({ phoneNumber: '+4915112345678', externalUserId: UUID }),
      [
        ['L180 P54', 'externalUserId', [], [ABSENT, 'partner-17']],
        ['L180 P17 P54', 'phoneNumber', ['+49 151 1234'], [ABSENT]],
      ],
    );

    // Answers four arrays (L181-L186); the uuid form of `externalUserId` is a
    // request rule, an answer's takes any string.
    const link = { externalUserId: UUID, phoneNumber: '+4915112345678', partnerUserId: 'pu-1' };
    checkFieldFacts(response('post /users/external-users', '201'), () => example('ExternalUsersResultMixed'), [
      [
        'L183',
        'externalUsersWithSuccess',
        [[link], [{ ...link, externalUserId: 'crm-4711' }]],
        [ABSENT, 'x', ...Object.keys(link).map((field) => [without(link, field)])],
      ],
      ...['unknownPhoneNumbers', 'invalidPhoneNumbers', 'duplicatedExternalUserIds'].map(
        (field): FieldFact => ['L184-L186', field, [], [ABSENT, 'x', [1]]],
      ),
    ]);
  });
});

describe('verification sub-resources', () => {
  it('user activities: {activities: [{activity, sessionId, createdAt}]}, activity an open string', () => {
    const activities = response('get /verification/{verificationId}/user-activities', '200');
    wantValid(activities, example('UserActivities'));
    wantValid(activities, example('UserActivitiesEmpty'));
    const item = { activity: 'startSession', sessionId: 's-1', createdAt: TIMESTAMP };
    for (const activity of ['startSession', 'cameraIssue', 'documentUploaded']) {
      wantValid(activities, { activities: [{ ...item, activity }] }, activity);
    }
    const activitySchema = resolve(
      partner.responseSchema('get /verification/{verificationId}/user-activities', '200').properties.activities.items,
    ).properties.activity;
    expect(activitySchema.enum).toBeUndefined();
    expect(activitySchema.const).toBeUndefined();
    expect(activitySchema.description).toMatch(/startSession[\s\S]*cameraIssue/);
    for (const field of Object.keys(item))
      wantInvalid(activities, { activities: [without(item, field)] }, `without ${field}`);
    wantInvalid(activities, { activities: [{ ...item, createdAt: '14.03.2026' }] });
    wantInvalid(activities, { activities: [{ ...item, activity: 3 }] });
    wantInvalid(activities, {});
  });

  it('linked by device: {verificationId, linkedVerificationsByDevice: [{deviceId, verifications: [{verificationId}]}]}', () => {
    const linked = response('get /verifications/{verificationId}/linked-by-device', '200');
    const value = example('VerificationLinkedByDevice');
    wantValid(linked, value);
    wantValid(linked, example('VerificationLinkedByDeviceNone'));
    wantInvalid(linked, without(value, 'verificationId'));
    wantInvalid(linked, without(value, 'linkedVerificationsByDevice'));
    wantInvalid(linked, { ...value, linkedVerificationsByDevice: [{ verifications: [] }] });
    wantInvalid(linked, { ...value, linkedVerificationsByDevice: [{ deviceId: 'd', verifications: [{ id: 'v' }] }] });
    wantInvalid(linked, { ...value, linkedVerificationsByDevice: [{ deviceId: 'd' }] });
  });
});

describe('webhook records (operations 11 and 18)', () => {
  // Each listing, the component of its records (their example: its plural), its type and the other one.
  const listings = [
    ['get /verifications/{verificationId}/webhooks', 'VerificationWebhookRecord', 'verification', 'user'],
    ['get /users/{userId}/webhooks', 'UserWebhookRecord', 'user', 'verification'],
  ];

  describe.each(listings)('%s', (key, record, type, otherType) => {
    const list = response(key, '200');
    const page = () => example(`${record}s`);
    const fields = partner.FIELDS[record];

    // "`type` (`verification` or `user`)": only the id field is documented as
    // "according to the listing"; that the type follows the listing too is
    // assumed (P24), held by the schema and marked where the type is described.
    checkFieldFacts(
      (record: Json) => list({ ...page(), webhooks: [record] }),
      () => page().webhooks[0],
      [
        ...fields.filter((f) => f !== 'reason').map((field): FieldFact => ['L79', field, [], [ABSENT]]),
        ['L79 P24', 'type', [type], [otherType, 'shareholder']],
        ['L79', 'success', [false], ['yes']],
        ['L79 P24', 'reason', [ABSENT, 'Request failed with status code 503'], [503]],
        ['L79', 'retryAt', [null, '2026-03-14T09:42:12.480Z'], ['2026-03-14', 15]],
        // A record of an event type added later still validates, so the page stays valid (P24).
        ['L79 P24', 'payload', [...Object.keys(EVENTS).map(webhookExample), ...laterEvents()], payloadBreaches()],
        ...(type === 'verification' ? [['L79', 'metadata', [{ attempt: 2 }], ['x']] satisfies FieldFact] : []),
      ],
    );
  });

  it('records are updated on retry rather than duplicated', () => {
    const text = listings
      .map(([key]) => resolve(partner.responseSchema(key, '200').properties.webhooks.items).description)
      .join('\n');
    expect(text).toMatch(/retr[^.]*(update|do not add)/i);
  });
});

/** Webhooks of an event type, and of a data type, the documentation does not list yet (P24). */
function laterEvents(): Json[] {
  const added = {
    eventId: '5e9a1c7d-3b4f-4d62-8e0a-b7c2f9d1e456',
    dataType: 'user',
    eventType: 'user.phoneNumberRemoved',
    createdAt: TIMESTAMP,
    data: { userId: partner.USER_ID, anything: ['new'] },
  };
  return [added, { ...added, dataType: 'document', eventType: 'document.expired' }];
}

/**
 * Payloads a record cannot hold: no envelope, a string, a known event off its
 * schema, a later event without the documented envelope (L79, L204-L227).
 */
function payloadBreaches(): Json[] {
  const user = webhookExample('user.created');
  const [later] = laterEvents();
  return [
    { foo: 1 },
    JSON.stringify(user),
    { ...user, eventType: 'verification.created' },
    { ...user, dataType: 'verification' },
    { ...user, data: without(user.data, 'userId') },
    { ...webhookExample('verification.created'), data: {} },
    ...partner.ENVELOPE_FIELDS.map((field) => without(later, field)),
    { ...later, eventId: 'not-a-uuid' },
    { ...later, createdAt: 'yesterday' },
    { ...later, data: 'text' },
    { ...later, eventType: 7 },
  ];
}
