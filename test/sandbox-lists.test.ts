// The partner lists answer exactly what a plain scan of every record
// answers, for any mix of filters, windows and paging (page and limit
// default to 0 and 15; limit 0 answers only the count), newest first.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/types/partner.js';
import { SandboxClock } from '../src/sandbox/common/clock.js';
import { SandboxError } from '../src/sandbox/partner/api.js';
import { createPartnerState, type PartnerState } from '../src/sandbox/partner/state.js';
import { deref, loadBundle } from './helpers/openapi.js';

type S = components['schemas'];
type VQuery = Parameters<PartnerState['listVerifications']>[0];
type UQuery = Parameters<PartnerState['listUsers']>[0];

const START = Date.parse('2026-03-14T09:00:00.000Z');
const PHONES = Array.from({ length: 48 }, (_, i) => `+4915120000${String(i).padStart(3, '0')}`);
const EXTERNAL = Array.from({ length: 9 }, (_, i) => `5d0c7e1a-0000-4000-8000-${String(i).padStart(12, '0')}`);
const STATUSES: S['VerificationStatus'][] = loadBundle('partner').components.schemas.VerificationStatus.enum;

let state: PartnerState;
let all: S['Verification'][];
let users: S['UserDetails'][];

beforeAll(() => {
  const clock = new SandboxClock(() => new Date(START));
  state = createPartnerState({ clock, authKey: 'k', publicUrl: 'http://127.0.0.1:4020', onEvent: () => undefined });
  // 240 verifications over many phones, owners and statuses, a minute apart.
  for (let i = 0; i < 240; i++) {
    const phoneNumbers = [
      { phoneNumber: PHONES[i % PHONES.length], isVerified: false },
      ...(i % 5 === 0 ? [{ phoneNumber: PHONES[(i * 7) % PHONES.length], isVerified: false }] : []),
    ];
    // A session left in review refuses a create for its phone and owner (409): skip those.
    const created = attempt(() =>
      state.createVerification({
        phoneNumbers,
        externalUserId: EXTERNAL[i % EXTERNAL.length],
        redirectUrl: 'https://app.example.com/done',
        requirements: i % 4 === 0 ? [{ type: 'document' }, { type: 'dateOfBirth' }] : [{ type: 'document' }],
        timeToExpiry: 5 + (i % 50),
      }),
    );
    if (!created) continue;
    const { id } = created;
    if (i % 3 === 0) {
      state.openLink(id);
      state.scan(id, { outcome: i % 18 === 0 ? 'review' : i % 6 === 0 ? 'fail' : 'pass' });
      if (i % 36 === 0) state.acceptReview(id);
    }
    if (i % 11 === 0 && state.getVerification(id).status === 'completed')
      state.revertVerification({ verificationId: id, author: 't' });
    const userId = state.getVerification(id).userId;
    if (i % 13 === 0 && userId) state.markShareholder(userId, { sharesNumber: 3 });
    clock.advance(1);
  }
  all = state.listVerifications({ limit: 100, page: 0 }).verifications;
  for (let page = 1; all.length < state.listVerifications({ limit: 0 }).count; page++)
    all.push(...state.listVerifications({ limit: 100, page }).verifications);
  const ids = state.listUsers({ limit: 100 }).users.map((u) => u.id);
  users = ids.map((id) => state.getUser(id));
}, 60_000);

/** A parameter left out, or given. */
const maybe = <T>(given: fc.Arbitrary<T>) => fc.option(given, { nil: undefined });
const some = <T>(values: readonly T[]) =>
  maybe(fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 }));
const instant = fc
  .integer({ min: -5, max: 260 })
  .map((m) => new Date(START + m * 60_000 + (m % 2) * 30_000).toISOString());
const paging = { page: maybe(fc.integer({ min: 0, max: 4 })), limit: maybe(fc.integer({ min: 0, max: 40 })) };

/** A generator for every query parameter of `Q`: one documented later and not modelled here fails `tsc`. */
type EveryParameter<Q> = { [Name in keyof Required<Q>]: fc.Arbitrary<Q[Name]> };

/** The query parameters the partner bundle documents for `GET path`, which the model must match. */
function documentedParameters(path: string): string[] {
  const doc = loadBundle('partner');
  const parameters = deref(doc, doc.paths[path]).get.parameters.map((p: unknown) => deref(doc, p));
  return parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
}

/** What a plain scan of `items` answers: the count of those kept, and the ids of the page asked for. */
function scan<T extends { id: string }>(items: T[], keep: (item: T) => boolean, q: { page?: number; limit?: number }) {
  const matches = items.filter(keep);
  const limit = q.limit ?? 15;
  const page = q.page ?? 0;
  return { count: matches.length, ids: matches.slice(page * limit, page * limit + limit).map((item) => item.id) };
}
const phones = (list?: { phoneNumber?: string | null }[] | null) => (list ?? []).map((p) => p.phoneNumber);
function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SandboxError && err.status === 409) return undefined;
    throw err;
  }
}
const anyOf = <T>(wanted: T[] | undefined, actual: T[]) => !wanted || actual.some((a) => wanted.includes(a));

describe('partner lists answer what a full scan answers', () => {
  it('GET /verifications, any filters, window and page', () => {
    expect(all.length).toBeGreaterThan(200);
    expect(new Set(all.map((v) => v.status)).size).toBeGreaterThanOrEqual(7);
    expect(all[0].createdAt > all.at(-1)!.createdAt).toBe(true);
    const created = all.map((v) => v.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const queries: EveryParameter<NonNullable<VQuery>> = {
      phoneNumber: some(PHONES),
      externalUserId: some(EXTERNAL),
      userId: some([...users.map((u) => u.id), '00000000-0000-4000-8000-000000000000']),
      status: some(STATUSES),
      datetimeField: maybe(fc.constantFrom(...(['createdAt', 'updatedAt', 'validTo'] as const))),
      from: maybe(instant),
      to: maybe(instant),
      ...paging,
    };
    // A filter the model does not send is never compared with the scan: a new one must be modelled below.
    expect(Object.keys(queries).sort()).toEqual(documentedParameters('/verifications').sort());
    fc.assert(
      fc.property(fc.record(queries, { requiredKeys: [] }), (q: NonNullable<VQuery>) => {
        const field = q.datetimeField ?? 'createdAt';
        const got = state.listVerifications(q);
        const expected = scan(
          all,
          (v) =>
            anyOf(q.phoneNumber, phones(v.phoneNumbers)) &&
            anyOf(q.externalUserId, [v.externalUserId]) &&
            anyOf(q.userId, v.userId ? [v.userId] : []) &&
            anyOf(q.status, [v.status]) &&
            // "More recent than" `from`, "not older than" `to` (S1), on createdAt when no field is named.
            (q.from === undefined || Date.parse(v[field]!) > Date.parse(q.from)) &&
            (q.to === undefined || Date.parse(v[field]!) <= Date.parse(q.to)),
          q,
        );
        expect({ count: got.count, ids: got.verifications.map((v) => v.id) }).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('GET /users, any filters and page', () => {
    expect(users.length).toBeGreaterThan(5);
    const queries: EveryParameter<NonNullable<UQuery>> = {
      phoneNumber: some(PHONES),
      externalUserId: some(EXTERNAL),
      id: some(users.map((u) => u.id)),
      isShareholder: maybe(fc.boolean()),
      ...paging,
    };
    expect(Object.keys(queries).sort()).toEqual(documentedParameters('/users').sort());
    fc.assert(
      fc.property(fc.record(queries, { requiredKeys: [] }), (q: NonNullable<UQuery>) => {
        const got = state.listUsers(q);
        const expected = scan(
          users,
          (u) =>
            anyOf(q.phoneNumber, phones(u.phoneNumbers)) &&
            anyOf(
              q.externalUserId,
              u.externalUsers.map((e) => e.id),
            ) &&
            anyOf(q.id, [u.id]) &&
            (q.isShareholder === undefined || state.userShares(u.id).isShareholder === q.isShareholder),
          q,
        );
        expect({ count: got.count, ids: got.users.map((u) => u.id) }).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
