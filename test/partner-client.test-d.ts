// Type tests: wrong calls of the partner client do not compile, and answers
// are typed from the document.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createPartnerClient,
  narrowVerification,
  type CompletedVerification,
  type components,
  type NarrowedVerification,
} from '../src/partner.js';

const partner = createPartnerClient({ baseUrl: 'http://127.0.0.1:4011', authKey: 'sbx_key' });
const body = {
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
  redirectUrl: 'https://partner.example.com/done',
};

describe('createPartnerClient types', () => {
  it('requires path parameters by their documented names', () => {
    // @ts-expect-error verificationId is missing
    partner.GET('/verifications/{verificationId}', {});
    // @ts-expect-error the parameter is verificationId, not id
    partner.GET('/verifications/{verificationId}', { params: { path: { id: 'v1' } } });
    partner.GET('/verification/{verificationId}/user-activities', { params: { path: { verificationId: 'v1' } } });
    // @ts-expect-error user activities live under the singular /verification
    partner.GET('/verifications/{verificationId}/user-activities', { params: { path: { verificationId: 'v1' } } });
  });

  it('requires externalUserId and redirectUrl to create a verification', () => {
    partner.POST('/verifications', { body });
    // @ts-expect-error externalUserId is required
    partner.POST('/verifications', { body: { redirectUrl: body.redirectUrl } });
    // @ts-expect-error redirectUrl is required
    partner.POST('/verifications', { body: { externalUserId: body.externalUserId } });
    // @ts-expect-error requirement types are the four documented ones
    partner.POST('/verifications', { body: { ...body, requirements: [{ type: 'selfie' }] } });
  });

  it('refuses a misspelled body field once the body is declared with its type, which an inline body is not (README, Known limitations)', () => {
    // Inline, openapi-fetch's body parameter skips the excess-property check: the misspelling compiles.
    partner.POST('/verifications', { body: { ...body, redirectURL: 'https://partner.example.com/done' } });
    const typed: components['schemas']['VerificationCreate'] = {
      ...body,
      // @ts-expect-error redirectURL is not a field; redirectUrl is
      redirectURL: 'https://partner.example.com/done',
    };
    const satisfying = {
      ...body,
      // @ts-expect-error redirectURL is not a field; redirectUrl is
      redirectURL: 'https://partner.example.com/done',
    } satisfies components['schemas']['VerificationCreate'];
    partner.POST('/verifications', { body: typed });
    void satisfying;
  });

  it('accepts only documented filter values', () => {
    partner.GET('/verifications', { params: { query: { status: ['inReview'], datetimeField: 'validTo' } } });
    // @ts-expect-error pending is not a status
    partner.GET('/verifications', { params: { query: { status: ['pending'] } } });
    // @ts-expect-error datetimeField is createdAt, updatedAt or validTo
    partner.GET('/verifications', { params: { query: { datetimeField: 'deletedAt' } } });
    // @ts-expect-error isShareholder is a boolean
    partner.GET('/users', { params: { query: { isShareholder: 'yes' } } });
  });

  it('types answers from the document', async () => {
    const { data } = await partner.GET('/verifications/{verificationId}', {
      params: { path: { verificationId: 'v1' } },
    });
    if (data) {
      expectTypeOf(data.status).toEqualTypeOf<components['schemas']['VerificationStatus']>();
      expectTypeOf(data.userId).toEqualTypeOf<string | null>();
    }
    const shares = await partner.GET('/users/{userId}/shares', { params: { path: { userId: 'u1' } } });
    if (shares.data) expectTypeOf(shares.data.sharesNumber).toBeNumber();
  });
});

describe('narrowed verifications (the if/then rules no generator enforces)', () => {
  it('types userId as a string once status is completed', () => {
    const v = {} as NarrowedVerification;
    if (v.status === 'completed') expectTypeOf(v.userId).toEqualTypeOf<string>();
    if (v.status === 'reverted') expectTypeOf(v.previousUserId).toEqualTypeOf<string | null>();
    if (v.status === 'started') expectTypeOf(v.userId).toEqualTypeOf<null>();
    expectTypeOf<CompletedVerification['userId']>().toEqualTypeOf<string>();
    // @ts-expect-error a completed verification has no previousUserId
    const wrong: CompletedVerification = { ...({} as CompletedVerification), previousUserId: 'e7c41a9d' };
    void wrong;
  });

  it('narrowVerification takes the generated Verification and may refuse it', () => {
    expectTypeOf(narrowVerification).parameter(0).toEqualTypeOf<components['schemas']['Verification']>();
    expectTypeOf(narrowVerification).returns.toEqualTypeOf<NarrowedVerification | undefined>();
  });
});
