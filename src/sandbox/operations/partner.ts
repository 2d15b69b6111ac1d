// The partner operations, by operationId: request in, [status, body] out.
import type { ParsedRequest } from '../../contract/routes.js';
import type { PartnerState } from '../partner/state.js';
import { SandboxError } from '../common/sandbox-error.js';

export type Handler = (req: ParsedRequest) => [number, unknown];

const id = (req: ParsedRequest, name: string) => String(req.params[name]);

/**
 * The addresses the sandbox sends a browser or a webhook to must be web
 * addresses: a `javascript:` or `data:` URL passes `format: uri`, and the end
 * user's page would redirect to it. Returns the body when they are.
 */
function webAddresses<T>(body: T, fields: string[]): T {
  for (const field of fields) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'string' && !/^https?:\/\/[^/]/i.test(value)) {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      throw new SandboxError(400, `${field} must be an http:// or https:// address in the sandbox, not ${JSON.stringify(shown)}`);
    }
  }
  return body;
}
const paging = (req: ParsedRequest) => ({ page: req.query.page as number | undefined, limit: req.query.limit as number | undefined });

// Success statuses as the document decides them (P1): 201 for the
// three operations that create something, 200 for the rest.
export function partnerHandlers(state: PartnerState): Record<string, Handler> {
  return {
    getPartner: () => [200, state.getPartner()],
    updatePartner: (req) => [200, state.updatePartner(webAddresses(req.body, ['webhookUrl']) as never)],
    listAuthKeys: (req) => [200, state.listAuthKeys(paging(req))],
    createAuthKey: () => [201, state.rotateAuthKey()],
    createVerification: (req) => [201, state.createVerification(webAddresses(req.body, ['redirectUrl', 'errorRedirectUrl']) as never)],
    revertVerification: (req) => [200, state.revertVerification(req.body as never)],
    listVerifications: (req) => [200, state.listVerifications(req.query as never)],
    getVerification: (req) => [200, state.getVerification(id(req, 'verificationId'))],
    listVerificationUserActivities: (req) => [200, state.userActivities(id(req, 'verificationId'))],
    getVerificationLinkedByDevice: (req) => [200, state.verificationLinkedByDevice(id(req, 'verificationId'))],
    listVerificationWebhooks: (req) => [200, state.verificationWebhooks(id(req, 'verificationId'), paging(req))],
    listUsers: (req) => [200, state.listUsers(req.query as never)],
    getUser: (req) => [200, state.getUser(id(req, 'userId'))],
    getUserLinkedByDevice: (req) => [200, state.userLinkedByDevice(id(req, 'userId'))],
    getUserShares: (req) => [200, state.userShares(id(req, 'userId'))],
    createExternalUsers: (req) => [201, state.createExternalUsers(req.body as never)],
    listUserFingerprints: (req) => [200, state.userFingerprints(id(req, 'userId'), paging(req))],
    listUserWebhooks: (req) => [200, state.userWebhooks(id(req, 'userId'), paging(req))],
  };
}
