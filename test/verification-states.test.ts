// narrowVerification restores the status rules of the partner Verification
// (userId only when completed, previousUserId only when reverted) that the
// generated types cannot carry.
import { describe, expect, it } from 'vitest';
import { narrowVerification, type components } from '../src/partner.js';
import { deref, loadBundle } from './helpers/openapi.js';

type Verification = components['schemas']['Verification'];
const doc = loadBundle('partner');
const example = (name: string): Verification => structuredClone(deref(doc, doc.components.examples[name]).value);

describe('narrowVerification', () => {
  it('narrows every documented verification example', () => {
    for (const name of [
      'VerificationCompleted',
      'VerificationReverted',
      'VerificationStarted',
      'VerificationInReview',
      'VerificationWaitingForUserInput',
    ]) {
      const value = example(name);
      expect(narrowVerification(value), name).toBe(value);
    }
    const completed = narrowVerification(example('VerificationCompleted'));
    expect(completed?.status === 'completed' && completed.userId).toEqual(expect.any(String));
  });

  it('accepts a revert from waitingForUserInput, which has no previous user', () => {
    const reverted = { ...example('VerificationReverted'), previousUserId: null };
    expect(narrowVerification(reverted)).toBe(reverted);
  });

  it('refuses a verification whose user ids contradict its status', () => {
    expect(narrowVerification({ ...example('VerificationCompleted'), userId: null })).toBeUndefined();
    expect(
      narrowVerification({ ...example('VerificationStarted'), userId: 'e7c41a9d-3f5b-4d82-b6e0-9a1f2c7d8b53' }),
    ).toBeUndefined();
    expect(
      narrowVerification({ ...example('VerificationStarted'), previousUserId: 'e7c41a9d-3f5b-4d82-b6e0-9a1f2c7d8b53' }),
    ).toBeUndefined();
    expect(
      narrowVerification({ ...example('VerificationReverted'), userId: 'e7c41a9d-3f5b-4d82-b6e0-9a1f2c7d8b53' }),
    ).toBeUndefined();
  });
});
