// The contract between the sandbox's HTTP layer (../http, ../operations) and
// its partner state (state.ts). Inputs arrive already validated against the
// partner document; outputs must validate against it.
import type { components, operations } from '../../../generated/types/partner.js';
import type { WebhookEvent } from '../../webhooks/events.js';
import type { JsonText } from '../common/answer-cache.js';

export { SandboxError } from '../common/sandbox-error.js';

type S = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type Paging = { page?: number; limit?: number };

/** How a change of the sandbox is announced: the webhook, and which histories keep its record. */
export interface EmittedEvent {
  /** The webhook; a new copy parsed from `text` at each read. */
  readonly event: WebhookEvent;
  /** The webhook's JSON text: what is signed and sent, and what the histories keep. */
  readonly text: string;
  readonly eventId: string;
  readonly verificationId?: string;
  readonly userId?: string;
}

/**
 * An event kept as its JSON text (DECISIONS S26): serialized once when it is
 * emitted, it can never change afterwards, and the store holds one string per
 * webhook instead of a copy of the record's objects.
 */
export class SerializedEvent implements EmittedEvent {
  constructor(
    readonly text: string,
    readonly eventId: string,
    readonly verificationId?: string,
    readonly userId?: string,
  ) {}

  get event(): WebhookEvent {
    return JSON.parse(this.text) as WebhookEvent;
  }
}

/** Outcome of the simulated document and face scan. */
export type ScanOutcome = 'pass' | 'review' | 'fail';

export interface PartnerApi {
  getPartner(): S['Partner'];
  updatePartner(body: S['PartnerUpdate']): S['Partner'];
  listAuthKeys(paging: Paging): S['AuthKeyList'];
  /** POST /auth-keys: a new active key; the previous one stops working at once. */
  rotateAuthKey(): S['AuthKeyList'];
  /** The key `X-Auth-Key` must carry now. */
  activeAuthKey(): string;

  createVerification(body: S['VerificationCreate']): S['CreatedVerification'];
  /** The same answer as JSON text, for the HTTP layer. */
  createVerificationJson(body: S['VerificationCreate']): JsonText;
  revertVerification(body: S['VerificationRevert']): S['VerificationRevertResult'];
  listVerifications(query: Query<'listVerifications'>): S['VerificationList'];
  getVerification(verificationId: string): S['Verification'];
  userActivities(verificationId: string): S['UserActivityList'];
  verificationLinkedByDevice(verificationId: string): S['VerificationLinkedByDevice'];
  verificationWebhooks(verificationId: string, paging: Paging): S['VerificationWebhookRecordList'];

  listUsers(query: Query<'listUsers'>): S['UserList'];
  getUser(userId: string): S['UserDetails'];
  userLinkedByDevice(userId: string): S['UserLinkedByDevice'];
  userShares(userId: string): S['Shares'];
  createExternalUsers(body: S['ExternalUsersCreate']): S['ExternalUsersResult'];
  userFingerprints(userId: string, paging: Paging): S['FingerprintList'];
  userWebhooks(userId: string, paging: Paging): S['UserWebhookRecordList'];
}
