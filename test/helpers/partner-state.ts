// A fresh partner state engine (src/sandbox/partner) for each test, without
// HTTP: a stopped clock, the webhooks it emits, and calls whose answers are
// checked against the partner document. One per test file, in its closure:
// files share a worker (isolate: false) and must not share the engine.
import { afterEach, beforeEach, expect } from 'vitest';
import type { components } from '../../generated/types/partner.js';
import { SandboxClock } from '../../src/sandbox/common/clock.js';
import { SandboxError, type EmittedEvent } from '../../src/sandbox/partner/api.js';
import { createPartnerState, type PartnerState } from '../../src/sandbox/partner/state.js';
import { pointer, validatorFor } from './openapi.js';

export type S = components['schemas'];

const START = Date.parse('2026-03-14T09:00:00.000Z');
/** The engine's auth key at start. */
export const KEY = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
export const PHONE = '+4915112345678';
export const OTHER_PHONE = '+31612345678';
export const EXT_A = '3b1f8e2a-6c4d-4f0e-9a7b-5d2c8e1f4a90';
export const EXT_B = '8e4c1a7d-2b9f-4d36-a0e5-6c3f9b1d7a42';
const REDIRECT = 'https://app.northwind-mobility.example/verification/done';

const partnerDoc = validatorFor('partner');

/** Asserts a value against the response schema the operation declares for a status. */
export function expectResponse(path: string, method: string, status: string, value: unknown) {
  const validate = partnerDoc.at(
    pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'),
  );
  expect(validate(value), partnerDoc.errors(validate)).toBe(true);
}

/** Registers the file's beforeEach (a new engine) and afterEach (every webhook of the test against the envelope union); answers the engine of the running test and the calls on it. */
export function usePartnerState() {
  let clock: SandboxClock;

  beforeEach(() => {
    clock = new SandboxClock(() => new Date(START));
    t.events = [];
    t.state = createPartnerState({
      clock,
      authKey: KEY,
      publicUrl: 'http://127.0.0.1:4020/',
      onEvent: (e) => t.events.push(e),
    });
  });

  afterEach(() => {
    // Every webhook of every test, against the document's envelope union.
    for (const { event } of t.events) partnerDoc.expectValid('WebhookEvent', event);
  });

  const t = {
    /** The engine of the running test. */
    state: undefined as unknown as PartnerState,
    /** The webhooks emitted so far; a test may start a new list. */
    events: [] as EmittedEvent[],
    eventTypes: () => t.events.map((e) => e.event.eventType),
    /** The verification status a webhook carries, undefined for user and shareholder webhooks. */
    statusOf: (e: EmittedEvent) => (e.event.dataType === 'verification' ? e.event.data.status : undefined),
    advance: (minutes: number) => clock.advance(minutes),
    create: (overrides: Partial<S['VerificationCreate']> = {}) => {
      const created = t.state.createVerification({
        phoneNumbers: [{ phoneNumber: PHONE, isVerified: false }],
        externalUserId: EXT_A,
        redirectUrl: REDIRECT,
        ...overrides,
      });
      expectResponse('/verifications', 'post', '201', created);
      return created;
    },
    get: (id: string) => {
      const v = t.state.getVerification(id);
      expectResponse('/verifications/{verificationId}', 'get', '200', v);
      return v;
    },
    getUser: (id: string) => {
      const u = t.state.getUser(id);
      expectResponse('/users/{userId}', 'get', '200', u);
      return u;
    },
    /** Runs an action, then answers the events it emitted. */
    emittedBy: (action: () => unknown) => {
      const before = t.events.length;
      action();
      return t.events.slice(before);
    },
    refusal: (action: () => unknown): SandboxError => {
      try {
        action();
      } catch (e) {
        expect(e).toBeInstanceOf(SandboxError);
        return e as SandboxError;
      }
      throw new Error('expected a SandboxError');
    },
    /** Drives a fresh verification to `completed` and returns it. */
    completeOne: (
      overrides: Partial<S['VerificationCreate']> = {},
      name = { firstName: 'Lena', lastName: 'Hoffmann' },
    ) => {
      const { id } = t.create(overrides);
      t.state.openLink(id);
      t.advance(3);
      return t.state.scan(id, { outcome: 'pass', document: name });
    },
  };
  return t;
}
