// What the sandbox control API (openapi/sandbox) asks of the partner state:
// acting as the end user, as the reviewer and as time, plus bookkeeping the
// HTTP layer needs (deliveries, tokens, seeding).
import type { components } from '../../../generated/types/partner.js';
import type { ScanOutcome } from './api.js';

type S = components['schemas'];

/** Fields a simulated document scan may fix; the rest are generated. */
export type ScannedDocumentFields = Partial<{
  type: S['DocumentType'];
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  placeOfBirth: string;
  nationality: string;
  serialNo: string;
  expiryAt: string;
  issuedAt: string;
  issuingAuthority: string;
  placeOfIssue: string;
}>;

export interface ScanInput {
  outcome: ScanOutcome;
  document?: ScannedDocumentFields;
  estimatedAge?: S['EstimatedAge'];
}

/** Result of one delivery attempt of a recorded webhook. */
export interface DeliveryResult {
  success: boolean;
  retryAt: string | null;
  reason?: string;
}

export interface SeedResult {
  verificationIds: string[];
  userIds: string[];
}

export interface PartnerControl {
  openLink(verificationId: string, options?: { deviceId?: string }): S['Verification'];
  enterName(verificationId: string, name: { firstName: string; lastName: string }): S['Verification'];
  enterDateOfBirth(verificationId: string, input: { dateOfBirth: string }): S['Verification'];
  verifyPhone(verificationId: string, phoneNumber?: string): S['Verification'];
  scan(verificationId: string, input: ScanInput): S['Verification'];
  acceptReview(verificationId: string): S['Verification'];
  expire(verificationId: string): S['Verification'];
  /** Expires what the clock has passed and says how many; call after moving the clock so the webhooks go out at once. */
  expireDue(): number;
  markShareholder(userId: string, input: { sharesNumber: number }): S['Shares'];
  recordDelivery(eventId: string, result: DeliveryResult): boolean;
  /** The verification a session token of a `url` belongs to. */
  verificationIdForToken(token: string): string | undefined;
  /** The partner's webhook address, or undefined while none was configured. */
  webhookTarget(): string | undefined;
  reset(): void;
  seed(): SeedResult;
}
