// The v2 read API's operations, by operationId, each answer typed by the v2
// document (typed.ts); the sessions themselves are v2/state.ts's.
import type { operations, paths } from '../../../generated/types/v2.js';
import type { V2State } from '../v2/state.js';
import type { Handlers } from './typed.js';

export function v2Handlers(v2: V2State): Handlers<operations, paths> {
  return {
    getVerification: (req) => [200, v2.get(req.params.id)],
    listVerifications: (req) => [200, v2.list(req.query)],
  };
}
