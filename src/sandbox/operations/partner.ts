// The partner API's handlers, typed by its document (typed.ts).
import type { operations, paths } from '../../../generated/types/partner.js';
import type { PartnerState } from '../partner/state.js';
import { isWebAddress } from '../../web-address.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handlers } from './typed.js';

/**
 * The body, once the addresses the sandbox sends a browser or a webhook to are web addresses: a `javascript:` or
 * `data:` URL passes `format: uri`, and the end user's page would redirect to it.
 */
function webAddresses<Body extends object>(body: Body, fields: (keyof Body & string)[]): Body {
  for (const field of fields) {
    const value = body[field];
    if (typeof value === 'string' && !isWebAddress(value)) {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      throw new SandboxError(
        400,
        `${field} must be an http:// or https:// address in the sandbox, not ${JSON.stringify(shown)}`,
      );
    }
  }
  return body;
}

// Success statuses as the document decides them (P1): 201 for the
// three operations that create something, 200 for the rest.
export function partnerHandlers(state: PartnerState): Handlers<operations, paths> {
  return {
    getPartner: () => [200, state.getPartner()],
    updatePartner: (req) => [200, state.updatePartner(webAddresses(req.body, ['webhookUrl']))],
    listAuthKeys: (req) => [200, state.listAuthKeys(req.query)],
    createAuthKey: () => [201, state.rotateAuthKey()],
    createVerification: (req) => [
      201,
      state.createVerification(webAddresses(req.body, ['redirectUrl', 'errorRedirectUrl'])),
    ],
    revertVerification: (req) => [200, state.revertVerification(req.body)],
    listVerifications: (req) => [200, state.listVerifications(req.query)],
    getVerification: (req) => [200, state.getVerification(req.params.verificationId)],
    listVerificationUserActivities: (req) => [200, state.userActivities(req.params.verificationId)],
    getVerificationLinkedByDevice: (req) => [200, state.verificationLinkedByDevice(req.params.verificationId)],
    listVerificationWebhooks: (req) => [200, state.verificationWebhooks(req.params.verificationId, req.query)],
    listUsers: (req) => [200, state.listUsers(req.query)],
    getUser: (req) => [200, state.getUser(req.params.userId)],
    getUserLinkedByDevice: (req) => [200, state.userLinkedByDevice(req.params.userId)],
    getUserShares: (req) => [200, state.userShares(req.params.userId)],
    createExternalUsers: (req) => [201, state.createExternalUsers(req.body)],
    listUserFingerprints: (req) => [200, state.userFingerprints(req.params.userId, req.query)],
    listUserWebhooks: (req) => [200, state.userWebhooks(req.params.userId, req.query)],
  };
}
