// Puts the sandbox in the state a code sample needs: the records whose ids
// the sample names exist, in the status its operation acts on, made through
// the lifecycle methods with only their ids chosen.
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../src/sandbox/server.js';

/** A queue in front of randomUUID: the next ids the sandbox hands out. */
export class IdSource {
  private queued: string[] = [];
  next = (): string => this.queued.shift() ?? randomUUID();
  queue(...ids: string[]): void {
    this.queued.push(...ids);
  }
}

type Stage = 'created' | 'started' | 'inReview' | 'completed';

/** Operations that act on a verification before completion; all others get a completed one. */
const STAGE_OF: Record<string, Stage> = {
  openVerificationLink: 'created',
  expireVerification: 'created',
  closeVerification: 'created',
  enterName: 'started',
  enterDateOfBirth: 'started',
  verifyPhone: 'started',
  scanVerification: 'started',
  acceptReview: 'inReview',
};

export interface SampleTarget {
  operationId: string;
  verificationId: string;
  userId: string;
  phoneNumbers: string[];
  externalUserId: string;
  /** The `eventId` the sample names (resending a webhook): the verification's `verification.created` gets it. */
  eventId?: string;
}

/**
 * Makes the target verification (in the operation's stage) and, when
 * completed, its user with the target user id. Fails loudly when the sandbox
 * did not give the records the ids asked for.
 */
export function prepare(sandbox: Sandbox, ids: IdSource, target: SampleTarget): void {
  const { partner } = sandbox;
  const stage = STAGE_OF[target.operationId] ?? 'completed';
  // The create takes the verification's id, then its event's.
  ids.queue(target.verificationId, ...(target.eventId ? [target.eventId] : []));
  const created = partner.createVerification({
    phoneNumbers: target.phoneNumbers.map((phoneNumber) => ({ phoneNumber, isVerified: false })),
    externalUserId: target.externalUserId,
    redirectUrl: 'https://partner.example/verification/done',
    requirements: [{ type: 'document' }],
  });
  const check = (what: string, got: unknown, want: string) => {
    if (got !== want)
      throw new Error(
        `sample state: ${what} got id ${String(got)}, not ${want}; the order in which the sandbox takes ids changed (test/helpers/sample-state.ts)`,
      );
  };
  check('the verification', created.id, target.verificationId);
  if (target.eventId) {
    check(
      'the verification.created webhook',
      partner.store.webhooksByEvent.has(target.eventId) ? target.eventId : undefined,
      target.eventId,
    );
    // A webhook is resent only where an address is set; no one answers there, which the sample does not wait for.
    partner.updatePartner({ webhookUrl: 'http://127.0.0.1:9/webhooks' });
  }
  if (stage === 'created') return;
  partner.openLink(target.verificationId);
  if (stage === 'started') return;
  if (stage === 'inReview') {
    partner.scan(target.verificationId, { outcome: 'review' });
    return;
  }
  // The scan takes a document id, then the id of the new user.
  ids.queue(randomUUID(), target.userId);
  check('the user', partner.scan(target.verificationId, { outcome: 'pass' }).userId, target.userId);
}
