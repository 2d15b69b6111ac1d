// The control API's handlers (/_sandbox), typed by its document (typed.ts).
import type { operations, paths } from '../../../generated/types/sandbox.js';
import type { SandboxClock } from '../common/clock.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handlers } from './typed.js';
import type { PartnerState } from '../partner/state.js';
import type { V2State } from '../v2/state.js';
import type { WebhookDelivery } from '../partner/delivery.js';

export interface ControlDeps {
  partner: PartnerState;
  delivery: WebhookDelivery;
  v2: V2State;
  clock: SandboxClock;
  credentials: () => { url: string; authKey: string; accessToken: string };
}

export function controlHandlers(deps: ControlDeps): Handlers<operations, paths> {
  const { partner, v2, clock, delivery, credentials } = deps;
  const clockView = () => ({ now: clock.now().toISOString(), offsetMinutes: clock.offsetMs / 60_000 });
  return {
    getCredentials: () => [200, { ...credentials(), webhookUrl: partner.webhookTarget() ?? null }],
    getClock: () => [200, clockView()],
    advanceClock: (req) => {
      clock.advance(req.body.minutes);
      // Expire what the jump passed over and retry the deliveries that fell due, so their webhooks go out at once.
      partner.expireDue();
      delivery.retryDue();
      return [200, clockView()];
    },
    openVerificationLink: (req) => [200, partner.openLink(req.params.verificationId, req.body)],
    enterName: (req) => [200, partner.enterName(req.params.verificationId, req.body)],
    enterDateOfBirth: (req) => [200, partner.enterDateOfBirth(req.params.verificationId, req.body)],
    verifyPhone: (req) => [200, partner.verifyPhone(req.params.verificationId, req.body?.phoneNumber)],
    scanVerification: (req) => [200, partner.scan(req.params.verificationId, req.body)],
    acceptReview: (req) => [200, partner.acceptReview(req.params.verificationId)],
    expireVerification: (req) => [200, partner.expire(req.params.verificationId)],
    closeVerification: (req) => [200, partner.closeVerification(req.params.verificationId)],
    markShareholder: (req) => [200, partner.markShareholder(req.params.userId, req.body)],
    createV2Verification: (req) => [201, v2.create(req.body)],
    resendWebhook: (req) => {
      const event = partner.recordedEvent(req.params.eventId);
      const webhookUrl = partner.webhookTarget();
      if (!webhookUrl) {
        throw new SandboxError(
          409,
          `Webhook ${event.eventId} not resent: no webhookUrl is set; set one with PUT /partners (or start the sandbox with --webhook-url) and resend`,
        );
      }
      delivery.resend(event);
      return [202, { eventId: event.eventId, eventType: event.event.eventType, webhookUrl }];
    },
    seedSandbox: () => [200, partner.seed()],
    resetSandbox: () => {
      delivery.clear();
      partner.reset();
      v2.reset();
      return [204, undefined];
    },
  };
}
