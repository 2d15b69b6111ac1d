// Type tests: the sandbox's handlers and the requests they read are typed by
// the generated operations, so a handler map that departs does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  components as PartnerComponents,
  operations as PartnerOperations,
  paths as PartnerPaths,
} from '../generated/types/partner.js';
import type {
  components as SandboxComponents,
  operations as SandboxOperations,
  paths as SandboxPaths,
} from '../generated/types/sandbox.js';
import type { operations as V2Operations, paths as V2Paths } from '../generated/types/v2.js';
import { controlHandlers, type ControlDeps } from '../src/sandbox/operations/control.js';
import { partnerHandlers } from '../src/sandbox/operations/partner.js';
import type { ListFilters } from '../src/sandbox/common/list-filters.js';
import type { AnswerOf, Handlers, RequestOf } from '../src/sandbox/operations/typed.js';
import { v2Handlers } from '../src/sandbox/operations/v2.js';
import type { PartnerState } from '../src/sandbox/partner/state.js';
import type { V2State } from '../src/sandbox/v2/state.js';

declare const state: PartnerState;
declare const deps: ControlDeps;
declare const sessions: V2State;

const partner = partnerHandlers(state);
const control = controlHandlers(deps);

describe('sandbox handler types', () => {
  it('types each real handler map by its document', () => {
    expectTypeOf(partner).toEqualTypeOf<Handlers<PartnerOperations, PartnerPaths>>();
    expectTypeOf(control).toEqualTypeOf<Handlers<SandboxOperations, SandboxPaths>>();
    expectTypeOf(v2Handlers(sessions)).toEqualTypeOf<Handlers<V2Operations, V2Paths>>();
    expectTypeOf(partner.getPartner).returns.toEqualTypeOf<[200, PartnerComponents['schemas']['Partner']]>();
    expectTypeOf(partner.createVerification).returns.toEqualTypeOf<
      [201, PartnerComponents['schemas']['CreatedVerification']]
    >();
    expectTypeOf<AnswerOf<SandboxOperations['resetSandbox']>>().toEqualTypeOf<[204, undefined]>();
  });

  it('refuses an undocumented status, an error status (errors are thrown as SandboxError), a body of the wrong shape, and content for a 204', () => {
    const changed: Handlers<PartnerOperations, PartnerPaths> = {
      ...partner,
      // @ts-expect-error getPartner documents 200, not 202
      getPartner: () => [202, state.getPartner()],
      // @ts-expect-error createVerification answers 201, not 200
      createVerification: (req) => [200, state.createVerification(req.body)],
      // @ts-expect-error 404 is documented, but as an error the dispatcher answers
      getUser: () => [404, { statusCode: 404, message: 'Not found' }],
      // @ts-expect-error a user is not the Verification getVerification documents
      getVerification: (req) => [200, state.getUser(req.params.verificationId)],
      // @ts-expect-error a Partner lacks the list's `count`
      listAuthKeys: () => [200, state.getPartner()],
    };
    const reset: Handlers<SandboxOperations, SandboxPaths> = {
      ...control,
      // @ts-expect-error resetSandbox's 204 has no content
      resetSandbox: () => [204, {}],
    };
    expectTypeOf(changed).toEqualTypeOf<Handlers<PartnerOperations, PartnerPaths>>();
    expectTypeOf(changed.getUser).returns.toEqualTypeOf<[200, PartnerComponents['schemas']['UserDetails']]>();
    expectTypeOf(reset).toEqualTypeOf<Handlers<SandboxOperations, SandboxPaths>>();
  });

  it('refuses a map missing a documented operation', () => {
    const { getUserShares, ...others } = partner;
    // @ts-expect-error getUserShares is documented, so it needs a handler
    const missing: Handlers<PartnerOperations, PartnerPaths> = others;
    expectTypeOf(getUserShares).returns.toEqualTypeOf<[200, PartnerComponents['schemas']['Shares']]>();
    expectTypeOf(missing).toEqualTypeOf<Handlers<PartnerOperations, PartnerPaths>>();
  });

  it('types the request: path values by name, the query and the body by operation', () => {
    type GetVerification = RequestOf<PartnerOperations['getVerification']>;
    expectTypeOf<GetVerification['params']>().toEqualTypeOf<{ verificationId: string }>();
    expectTypeOf<RequestOf<PartnerOperations['createVerification']>['body']>().toEqualTypeOf<
      PartnerComponents['schemas']['VerificationCreate']
    >();
    // An optional body may be absent; an operation without one has none.
    expectTypeOf<RequestOf<SandboxOperations['verifyPhone']>['body']>().toEqualTypeOf<
      SandboxComponents['schemas']['PhoneVerification'] | undefined
    >();
    expectTypeOf<RequestOf<PartnerOperations['getPartner']>['body']>().toEqualTypeOf<undefined>();
    const changed: Handlers<PartnerOperations, PartnerPaths> = {
      ...partner,
      // @ts-expect-error getVerification's path names verificationId, not userId
      getVerification: (req) => [200, state.getVerification(req.params.userId)],
    };
    expectTypeOf(changed).toEqualTypeOf<Handlers<PartnerOperations, PartnerPaths>>();
  });
});

describe("a list's filter table", () => {
  type UsersQuery = NonNullable<PartnerOperations['listUsers']['parameters']['query']>;
  type WithNew = ListFilters<UsersQuery & { hasExternalUser?: boolean }, number>;
  const keep = () => true;

  it('needs an entry for every query parameter the list documents', () => {
    // @ts-expect-error hasExternalUser, newly documented for GET /users, has no entry
    const withNew: WithNew = {
      phoneNumber: keep,
      externalUserId: keep,
      id: keep,
      isShareholder: keep,
      page: null,
      limit: null,
    };
    expectTypeOf(withNew).toEqualTypeOf<WithNew>();
  });

  it('takes null only for the paging, not to silence a filter', () => {
    const silenced: WithNew = {
      phoneNumber: keep,
      externalUserId: keep,
      id: keep,
      isShareholder: keep,
      // @ts-expect-error a documented filter must keep or drop records
      hasExternalUser: null,
      page: null,
      limit: null,
    };
    expectTypeOf(silenced).toEqualTypeOf<WithNew>();
  });
});
