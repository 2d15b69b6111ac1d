// The sandbox control API (/_sandbox, openapi/sandbox), by operationId.
import { beyondDateTimes, LATEST_CLOCK_MS, type SandboxClock } from '../common/clock.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { ParsedRequest } from '../../contract/routes.js';
import type { Handler } from './partner.js';
import type { PartnerState } from '../partner/state.js';
import type { V2SessionInput, V2State } from '../v2/state.js';
import type { WebhookDelivery } from '../partner/delivery.js';

export interface ControlDeps {
  partner: PartnerState;
  delivery: WebhookDelivery;
  v2: V2State;
  clock: SandboxClock;
  credentials: () => { url: string; authKey: string; accessToken: string };
}

const vid = (req: ParsedRequest) => String(req.params.verificationId);
const body = <T>(req: ParsedRequest) => (req.body ?? {}) as T;

export function controlHandlers({ partner, v2, clock, delivery, credentials }: ControlDeps): Record<string, Handler> {
  const clockView = () => ({ now: clock.now().toISOString(), offsetMinutes: clock.offsetMinutes });
  return {
    getCredentials: () => [200, { ...credentials(), webhookUrl: partner.webhookTarget() ?? null }],
    getClock: () => [200, clockView()],
    advanceClock: (req) => {
      const { minutes } = body<{ minutes: number }>(req);
      const refused = beyondDateTimes(clock.nowMs() + minutes * 60_000);
      if (refused) {
        const left = Math.floor((LATEST_CLOCK_MS - clock.nowMs()) / 60_000);
        throw new SandboxError(400, `minutes ${minutes} refused: ${refused}. Move it at most ${left} minutes more; the clock never moves back, so start the sandbox afresh (a new --state file) to use earlier times again`);
      }
      clock.advance(minutes);
      // Expire what the jump passed over now, so its webhooks go out at once,
      // and retry the deliveries that fell due.
      partner.expireDue();
      delivery.retryDue();
      return [200, clockView()];
    },
    openVerificationLink: (req) => [200, partner.openLink(vid(req), body(req))],
    enterName: (req) => [200, partner.enterName(vid(req), body(req))],
    enterDateOfBirth: (req) => [200, partner.enterDateOfBirth(vid(req), body(req))],
    verifyPhone: (req) => [200, partner.verifyPhone(vid(req), body<{ phoneNumber?: string }>(req).phoneNumber)],
    scanVerification: (req) => [200, partner.scan(vid(req), body(req))],
    acceptReview: (req) => [200, partner.acceptReview(vid(req))],
    expireVerification: (req) => [200, partner.expire(vid(req))],
    closeVerification: (req) => [200, partner.closeVerification(vid(req))],
    markShareholder: (req) => [200, partner.markShareholder(String(req.params.userId), body(req))],
    createV2Verification: (req) => [201, v2.create(body<V2SessionInput>(req))],
    resendWebhook: (req) => {
      const event = partner.recordedEvent(String(req.params.eventId));
      const webhookUrl = partner.webhookTarget();
      if (!webhookUrl) {
        throw new SandboxError(409, `Webhook ${event.eventId} not resent: no webhookUrl is set; set one with PUT /partners (or start the sandbox with --webhook-url) and resend`);
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
