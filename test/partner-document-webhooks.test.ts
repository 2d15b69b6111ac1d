// The seven partner webhooks: each event's delivery, signature and body, the envelope
// (WebhookEvent) and the data of each type (verification ids by status: the verification tests).
import { describe, expect, it } from 'vitest';
import { ABSENT, checkFieldFacts, type FieldFact, type Json, wantInvalid, wantValid } from './helpers/openapi.js';
import * as partner from './helpers/partner-document.js';

const { EVENTS, resolve, sorted, webhookEvent, webhookExample, webhookValidator, without } = partner;

describe('webhooks', () => {
  it('are exactly the seven event types', () => {
    expect(sorted(Object.keys(partner.doc.webhooks))).toEqual(sorted(Object.keys(EVENTS)));
    expect(partner.webhookOps).toHaveLength(7);
  });

  describe.each(Object.keys(EVENTS))('%s', (event) => {
    const item = resolve(partner.doc.webhooks[event]) ?? {};
    const operation = item.post ?? {};

    it('is delivered by POST with no API key (P21)', () => {
      expect(
        Object.keys(item).filter((k) =>
          ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(k),
        ),
      ).toEqual(['post']);
      expect(operation.security).toEqual([]);
      expect(resolve(operation.requestBody).required).toBe(true);
    });

    it('carries the required X-SIGNATURE header, lowercase hex of 64 digits', () => {
      const params = partner.paramsOf(`post ${event}`);
      expect(params).toHaveProperty('X-SIGNATURE');
      const { param, schemaPtr } = params['X-SIGNATURE'];
      expect(param).toMatchObject({ in: 'header', required: true });
      expect(param.description).toMatch(/HMAC-SHA256/);
      expect(param.description).toMatch(/auth key/i);
      const validate = partner.validatorAt(schemaPtr);
      wantValid(validate, partner.SIGNATURE);
      wantInvalid(validate, partner.SIGNATURE.toUpperCase().replace(/[0-9]/g, 'A'));
      wantInvalid(validate, partner.SIGNATURE.slice(1));
      wantInvalid(validate, `${partner.SIGNATURE}0`);
      wantInvalid(validate, 'g'.repeat(64));
    });

    it('answers only 200, and anything else is retried every 15 minutes', () => {
      expect(Object.keys(operation.responses)).toEqual(['200']);
      const description = resolve(operation.responses['200']).description;
      expect(description).toMatch(/15 minutes/);
      expect(description).toMatch(/retr/i);
    });

    it('has a realistic example of its own event', () => {
      const value = webhookExample(event);
      wantValid(webhookValidator(event), value);
      wantValid(webhookEvent, value);
      expect(value.eventType).toBe(event);
      expect(value.dataType).toBe(EVENTS[event]);
      expect(value.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(Object.keys(value.data).length).toBeGreaterThanOrEqual(3);
    });

    // Its eventType fixed, with the dataType it pairs with (L213-L221).
    checkFieldFacts(webhookValidator(event), () => webhookExample(event), [
      ...partner.ENVELOPE_FIELDS.map((field): FieldFact => ['L204-L211', field, [], [ABSENT]]),
      ['L207', 'eventId', [partner.UUID], ['evt-1']],
      ['L210', 'createdAt', [], ['2026-03-14']],
      ['L211', 'data', [], ['x']],
      ['L213', 'eventType', [], Object.keys(EVENTS).filter((e) => e !== event)],
      ['L213', 'dataType', [], partner.DATA_TYPES.filter((d) => d !== EVENTS[event])],
    ]);
  });
});

describe('webhook envelope (WebhookEvent)', () => {
  it('takes dataType from user, verification and shareholder, and eventType from the seven events', () => {
    const members = resolve(partner.doc.components.schemas.WebhookEvent).oneOf.map((m: Json) => resolve(m));
    expect(sorted([...new Set<string>(members.map((m: Json) => m.properties.dataType.const))])).toEqual(
      sorted(partner.DATA_TYPES),
    );
    expect(sorted(members.map((m: Json) => m.properties.eventType.const))).toEqual(sorted(Object.keys(EVENTS)));
  });

  it('accepts every documented dataType/eventType pair and rejects every other', () => {
    for (const event of Object.keys(EVENTS)) {
      for (const dataType of partner.DATA_TYPES) {
        const value = { ...webhookExample(event), dataType };
        expect(webhookEvent(value), `${dataType} with ${event}`).toBe(dataType === EVENTS[event]);
      }
    }
    // Data of one kind with each event type of that kind; verification.created
    // also needs a just-created verification, which the updated example is not.
    for (const source of Object.keys(EVENTS)) {
      for (const event of Object.keys(EVENTS)) {
        const value = { ...webhookExample(source), eventType: event };
        const pending = event !== 'verification.created' || webhookExample(source).data.status === 'created';
        expect(webhookEvent(value), `${source} data as ${event}`).toBe(EVENTS[source] === EVENTS[event] && pending);
      }
    }
  });
});

describe('webhook data (L223-L227)', () => {
  const withData = (event: string) => (data: Json) => webhookValidator(event)({ ...webhookExample(event), data });
  const dataOf = (event: string) => () => webhookExample(event).data;
  const updated = dataOf('verification.updated');

  it('verification data has the documented fields, identified by verificationId, shared by both events', () => {
    const data = resolve(partner.webhookSchema('verification.updated').properties.data);
    partner.expectFields(data, 'VerificationEventData');
    // `updatedAt` may be absent from `verification.created` (P33).
    expect(data.required).not.toContain('updatedAt');
    expect(resolve(resolve(partner.webhookSchema('verification.created').properties.data).allOf[0])).toBe(data);
    wantInvalid(withData('verification.updated'), { ...without(updated(), 'verificationId'), id: 'x' });
  });

  // Typed as the Verification; the create bounds are not re-checked (P6, P16,
  // P29); input the partner may leave out may be absent (P8).
  checkFieldFacts(withData('verification.updated'), updated, [
    ['L223', 'verificationId', [], [ABSENT, 7]],
    ['L223', 'status', [], ['pending']],
    ['L223 P8', 'requirements', [ABSENT], [[{ type: 'selfie' }]]],
    ['L223 P8', 'phoneNumbers', [ABSENT], []],
    ['L223', 'collectedRequirements', [], [[{ ...partner.collected('phoneNumbers'), verified: true }]]],
    ['L223', 'externalUserId', [], ['partner-17']],
    ['L223', 'updatedAt', [], ['2026-03-14']],
    ['L223 P6', 'metadata', [{ v: 'y'.repeat(501) }], ['orderId=1']],
    ['L223 P29', 'redirectUrl', ['northwind-app://done'], []],
    ['L223 P16', 'reason', ['r'.repeat(201)], []],
  ]);

  it('verification.created carries a just-created verification: status created, every result null (L151)', () => {
    const created = webhookValidator('verification.created');
    const value = webhookExample('verification.created');
    wantValid(created, value);
    wantValid(created, { ...value, data: without(without(value.data, 'phoneNumbers'), 'requirements') }, 'P8');
    expect(value.data.status).toBe('created');
    for (const status of partner.STATUSES.filter((s) => s !== 'created')) {
      wantInvalid(created, { ...value, data: { ...value.data, status } }, status);
    }
    const firstType = value.data.collectedRequirements[0].type;
    wantInvalid(
      created,
      { ...value, data: { ...value.data, collectedRequirements: [{ ...partner.collected(firstType) }] } },
      'a collected result',
    );
  });

  it('user data has the documented fields, shaped as the User resource, for all four user events (L225)', () => {
    const data = resolve(partner.webhookSchema('user.created').properties.data);
    partner.expectFields(data, 'UserEventData');
    for (const event of ['user.merged', 'user.updated', 'user.deleted'])
      expect(resolve(partner.webhookSchema(event).properties.data)).toBe(data);
  });

  checkFieldFacts(withData('user.created'), dataOf('user.created'), [
    ['L225', 'userId', [], [ABSENT]],
    ['L225', 'estimatedAge', [], ['over99']],
    ['L225', 'dateOfBirth', [null, '23.07.1991'], []],
    ['L225', 'phoneNumbers', [], [[{ phoneNumber: '015112345678', createdAt: partner.TIMESTAMP, verified: true }]]],
    ['L225', 'names', [], [[{ firstName: 7 }]]],
    ['L225', 'externalUsers', [], [[{ id: partner.UUID, createdAt: 'today' }]]],
    ['L225', 'createdAt', [], ['today']],
  ]);

  checkFieldFacts(withData('shareholder.verified'), dataOf('shareholder.verified'), [
    ['L227', 'userId', [], [ABSENT, 1]],
    ['L227', 'isShareholder', [true], [ABSENT, false, 'true']],
    ['L227', 'externalUserIds', [ABSENT, [], ['a', partner.UUID]], [[1], 'a,b']],
  ]);

  it('shareholder.verified is sent every time a verification completes for a shareholder (L221)', () => {
    expect(resolve(partner.doc.webhooks['shareholder.verified']).post.description).toMatch(/every time/i);
  });
});
