// Type tests: wrong calls of the v2 client do not compile, and answers are
// typed from the document.
import { describe, expectTypeOf, it } from 'vitest';
import { createV2Client, type components } from '../src/v2.js';

const v2 = createV2Client({ baseUrl: 'http://127.0.0.1:4010', accessToken: 't0k3n' });

describe('createV2Client types', () => {
  it('requires the id path parameter', () => {
    // @ts-expect-error the path parameter `id` is missing
    v2.GET('/v2/verifications/{id}', {});
    // @ts-expect-error no params at all
    v2.GET('/v2/verifications/{id}');
    v2.GET('/v2/verifications/{id}', { params: { path: { id: 'abc' } } });
  });

  it('accepts only documented statuses', () => {
    // @ts-expect-error PENDING is not a status
    v2.GET('/v2/verifications/', { params: { query: { statuses: ['PENDING'] } } });
    // @ts-expect-error statuses is a list, not one value
    v2.GET('/v2/verifications/', { params: { query: { statuses: 'APPROVED' } } });
    v2.GET('/v2/verifications/', { params: { query: { statuses: ['APPROVED', 'REVIEW'] } } });
  });

  it('knows only the documented paths and methods', () => {
    // @ts-expect-error the list path ends with a slash
    v2.GET('/v2/verifications', {});
    // @ts-expect-error the v2 API is read-only
    v2.POST('/v2/verifications/', {});
  });

  it('types answers from the document', async () => {
    const { data, error } = await v2.GET('/v2/verifications/{id}', { params: { path: { id: 'abc' } } });
    if (data) {
      expectTypeOf(data.status).toEqualTypeOf<components['schemas']['VerificationStatus']>();
      expectTypeOf(data.workflowId).toEqualTypeOf<string | null>();
      expectTypeOf(data.identityDocument).toEqualTypeOf<components['schemas']['IdentityDocument']>();
      expectTypeOf<null>().toMatchTypeOf<typeof data.faceScan>();
    }
    if (error) expectTypeOf(error.code).toBeString();
    const list = await v2.GET('/v2/verifications/', {});
    if (list.data) expectTypeOf(list.data.count).toBeNumber();
  });
});
