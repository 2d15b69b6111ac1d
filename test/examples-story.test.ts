// The examples tell one story: a user, a verification, an event or a key
// shown by several examples is the same in each, seen at different moments.
// Each check lists the contradictions it finds, so a new example that
// contradicts the others fails with a message naming both.
//
// What "the same" allows (the history the documents describe):
// - A user's phone numbers, external users and `names` grow over time
//   (`user.updated`, `user.merged`); each entry keeps the `createdAt` it was
//   added at. A snapshot of a user at moment T (its `updatedAt`, or the time
//   of the webhook carrying it) holds exactly the entries added at or before
//   T, unless a revert detached data in between (revert rule 2).
// - The current `firstName`/`lastName` is the last `names` entry; a date of
//   birth, once known, never changes.
// - An external user id or a phone number belongs to one user; it may belong
//   to another user only after the first was deleted (a new verification after
//   `user.deleted`), and a deleted user's id never appears again as a live
//   user: only in snapshots dated no later than its deletion, or as a
//   verification's `previousUserId`.
// - A verification keeps its partner-supplied fields, phones and external
//   user id; its status moves only along the documented transitions as its
//   `updatedAt` grows; a completed verification's user holds its external
//   user, phones and collected name from then on.
// - The same `eventId` is the same webhook body everywhere (webhook records
//   store "the full webhook body sent").
// - A document's serial number names one physical document, whichever API
//   reads it, so its holder and dates agree everywhere.
// - A history page holds every webhook of its subject between its records; a
//   page said to hold all users lists every live one; an id, an eventId and a
//   previousUserId each name one thing; the samples a renderer assembles from
//   schema-level examples join this story too (test/helpers/story-checks.ts).
// - One person seen through both APIs has one session expiry and one age
//   estimate.
// - What names one thing has one value in the three bundles, the schemas'
//   examples included (test/helpers/story-one-value.ts): a verification's
//   `url` token (on the service's address, base64url of `{"sid":…}` with
//   the first eight hex digits of its id, as the v2 examples have it); a
//   user as the list and the details show it; a v2 session's `expiresAt`.
//   A `partnerUserId` is never a service user's id.
import { describe, expect, it } from 'vitest';
import { loadBundle, type Json } from './helpers/openapi.js';
import { readStory, schemaSamples, type Story } from './helpers/story.js';
import {
  deletionProblems,
  eventProblems,
  ownershipProblems,
  userProblems,
  verificationProblems,
} from './helpers/story-history-checks.js';
import {
  listedUsers,
  listingProblems,
  partnerUserIdProblems,
  urlTokenProblems,
  v2ExpiryProblems,
  verificationUrls,
} from './helpers/story-one-value.js';
import {
  accountProblems,
  crossApiProblems,
  deviceProblems,
  documentProblems,
  eventIdProblems,
  externalLinkProblems,
  historyProblems,
  idProblems,
  previousUserProblems,
  requestProblems,
  userListProblems,
  v2Problems,
} from './helpers/story-checks.js';

const partner = readStory(loadBundle('partner'));
const v2 = readStory(loadBundle('v2'));
const sandbox = readStory(loadBundle('sandbox'));
const samples = {
  partner: schemaSamples(loadBundle('partner')),
  all: ['partner', 'v2', 'sandbox'].flatMap((api) => schemaSamples(loadBundle(api))),
};
const sampleDocuments = samples.all.filter((s) => typeof s.value.serialNo === 'string');
const urls = ['partner', 'v2', 'sandbox'].flatMap((api) => verificationUrls(loadBundle(api), api));
const v2Sessions = [
  ...v2.v2Sessions.map((s) => ({ ...s, where: `v2 ${s.where}` })),
  ...sandbox.v2Sessions.map((s) => ({ ...s, where: `sandbox ${s.where}` })),
  ...['v2', 'sandbox'].flatMap((api) =>
    schemaSamples(loadBundle(api)).map((s) => ({ ...s, where: `${api} ${s.where}` })),
  ),
];

describe('the examples tell one story', () => {
  it('reads the entities of the examples', () => {
    expect(new Set(partner.users.map((u) => u.id)).size).toBeGreaterThanOrEqual(3);
    expect(partner.users.some((u) => u.deleted)).toBe(true);
    expect(new Set(partner.verifications.map((v) => v.id)).size).toBeGreaterThanOrEqual(6);
    expect(partner.webhookRecords.length).toBeGreaterThanOrEqual(4);
    expect(partner.userDevices.length).toBeGreaterThanOrEqual(2);
    expect(partner.externalUserBatches.length).toBeGreaterThanOrEqual(2);
    expect(partner.authKeyLists.length).toBeGreaterThanOrEqual(3);
    expect(v2.v2Sessions.length).toBeGreaterThanOrEqual(4);
  });

  it.each<[string, () => string[]]>([
    ['a user has one history of names, phones, external users and birth date', () => userProblems(partner)],
    ["a deleted user's id never appears again as a live user", () => deletionProblems(partner)],
    ['a phone number and an external user id belong to one user', () => ownershipProblems(partner)],
    [
      'a verification keeps its phones, external user and supplied data, and moves along the documented states',
      () => verificationProblems(partner),
    ],
    ['a webhook is the same body wherever it is shown, and its record names its subject', () => eventProblems(partner)],
    ['device links are the same from every side', () => deviceProblems(partner)],
    [
      'an error example about a path value answers a request that reaches its operation',
      () => [...requestProblems(loadBundle('v2')), ...requestProblems(loadBundle('partner'))],
    ],
    [
      'auth keys and the partner record keep their identity; a rotated key stays inactive',
      () => accountProblems(partner),
    ],
    ['v2 sessions agree among themselves', () => v2Problems(v2)],
  ])('%s', (_, problems) => {
    expect(problems()).toEqual([]);
  });

  it("a document serial number names one document, in every API and in the schemas' own examples", () => {
    expect(sampleDocuments.length).toBeGreaterThanOrEqual(4);
    expect(documentProblems([...partner.documents, ...v2.documents, ...sandbox.documents, ...sampleDocuments])).toEqual(
      [],
    );
  });

  it('a history page holds every webhook of its subject between its records, and counts them all', () => {
    expect(partner.historyPages.length).toBeGreaterThanOrEqual(2);
    expect(historyProblems(partner)).toEqual([]);
  });

  it('a page of all users lists every live user; a batch link shows in its user', () => {
    expect(partner.userPages.some((p) => /all users/i.test(p.description ?? ''))).toBe(true);
    expect(userListProblems(partner)).toEqual([]);
    expect(externalLinkProblems(partner)).toEqual([]);
  });

  it('an eventId is one webhook, an id one thing, a previousUserId a detached user (schema samples included)', () => {
    expect(samples.partner.filter((s) => typeof s.value.eventId === 'string').length).toBeGreaterThanOrEqual(7);
    expect(eventIdProblems(partner, samples.partner)).toEqual([]);
    expect(idProblems(partner, samples.partner, v2)).toEqual([]);
    expect(previousUserProblems(partner, samples.partner)).toEqual([]);
  });

  it('one person agrees through both APIs: session expiry and age estimate', () => {
    const readings = [...v2.v2Readings, ...sandbox.v2Readings];
    expect(readings.length).toBeGreaterThanOrEqual(3);
    expect(crossApiProblems(partner, readings)).toEqual([]);
  });

  it("one url token per verification, in the three bundles and the schemas' examples, shaped as the v2 tokens", () => {
    expect(new Set(urls.filter((u) => u.token).map((u) => u.verificationId)).size).toBeGreaterThanOrEqual(12);
    expect(urlTokenProblems(urls)).toEqual([]);
  });

  it('a user shown by the list and by the details examples has one updatedAt and one set of external users', () => {
    const users = listedUsers(loadBundle('partner'));
    expect(users.length - new Set(users.map((u) => u.value.id)).size).toBeGreaterThanOrEqual(2);
    expect(listingProblems(users)).toEqual([]);
  });

  it("a partnerUserId is never a service user's id", () => {
    expect(partner.externalUserBatches.some((b) => b.value.externalUsersWithSuccess.length)).toBe(true);
    expect(partnerUserIdProblems(partner, samples.partner)).toEqual([]);
  });

  it("a v2 session has one expiresAt in every example and in the schemas' samples", () => {
    const sampled = v2Sessions.filter((s) => s.where.includes('#/components/schemas/') && s.value.id);
    expect(sampled.filter((s) => s.value.expiresAt).length).toBeGreaterThanOrEqual(2);
    expect(v2ExpiryProblems(v2Sessions)).toEqual([]);
  });

  // The checks catch what they claim to: each gets one contradiction planted.
  /** The partner story with one more item in one of its lists. */
  const plant = <K extends keyof Story>(key: K, item: Story[K][number]): Story => {
    const story = structuredClone(partner);
    (story[key] as Story[K][number][]).push(item);
    return story;
  };
  const finds = (problems: string[]) => expect(problems).not.toEqual([]);
  const FOREIGN_ID = '00000000-0000-4000-8000-000000000000';
  const planted = <T>(value: T) => ({ where: 'planted', value });

  it('each one-value check finds a planted contradiction', () => {
    const served = urls.find((u) => u.origin !== 'http://127.0.0.1:4020' && u.token)!;
    const otherToken = Buffer.from(JSON.stringify({ sid: 'planted' })).toString('base64url');
    finds(urlTokenProblems([...urls, { ...served, where: 'planted', token: otherToken }]));
    // The shape the audit found: hex digits pasted where base64url belongs.
    finds(urlTokenProblems([{ ...served, token: `eyJzaWQiOiI${served.verificationId.slice(0, 8)}In0` }]));
    finds(urlTokenProblems([{ ...served, token: undefined }]));
    finds(urlTokenProblems([{ ...served, ownerId: FOREIGN_ID }]));
    expect(urlTokenProblems([{ ...served }])).toEqual([]);
    const users = listedUsers(loadBundle('partner'));
    const lenaListed = users.find((u) => u.value.externalUsers.length > 2)!;
    const earlier = { ...lenaListed.value, externalUsers: lenaListed.value.externalUsers.slice(0, 2) };
    finds(listingProblems([...users, planted(earlier)]));
    finds(listingProblems([...users, planted({ ...lenaListed.value, updatedAt: earlier.createdAt })]));
    const batch = partner.externalUserBatches.find((b) => b.value.externalUsersWithSuccess.length)!;
    const link = { ...batch.value.externalUsersWithSuccess[0], partnerUserId: partner.users[0].id };
    finds(
      partnerUserIdProblems({ ...partner, externalUserBatches: [planted({ externalUsersWithSuccess: [link] })] }, []),
    );
    const session = v2.v2Sessions[0];
    const weekLater = new Date(Date.parse(session.value.expiresAt) + 7 * 24 * 3600_000).toISOString();
    finds(v2ExpiryProblems([...v2Sessions, planted({ ...session.value, expiresAt: weekLater })]));
  });

  it('each check finds a planted contradiction', () => {
    const lena = partner.users.find((u) => u.externalUsers.size > 1)!;
    finds(userProblems(plant('users', { ...structuredClone(lena), where: 'planted', dateOfBirth: '1990-01-01' })));
    const later = { ...structuredClone(lena), where: 'planted', at: '2099-01-01T00:00:00.000Z', phones: new Map() };
    finds(userProblems(plant('users', later)));
    const gone = partner.users.find((u) => u.deleted)!;
    finds(deletionProblems(plant('userMentions', { where: 'planted', userId: gone.id })));
    const [ext] = lena.externalUsers.keys();
    const owner = { ...structuredClone(gone), id: 'usr_planted', deleted: false };
    finds(ownershipProblems(plant('users', { ...owner, externalUsers: new Map([[ext, gone.createdAt]]) })));
    const one = partner.verifications[0];
    finds(
      verificationProblems(
        plant('verifications', { ...one, ...planted({ ...one.value, externalUserId: FOREIGN_ID }) }),
      ),
    );
    finds(
      eventProblems(plant('events', planted({ ...partner.events[0].value, createdAt: '2099-01-01T00:00:00.000Z' }))),
    );
    const device = partner.userDevices.find((d) => d.value.linkedUsersByDevice.some((x: Json) => x.users.length > 1))!;
    const neighbour = device.value.linkedUsersByDevice
      .flatMap((x: Json) => x.users)
      .find((u: Json) => u.userId !== device.value.userId).userId;
    finds(deviceProblems(plant('userDevices', planted({ userId: neighbour, linkedUsersByDevice: [] }))));
    finds(documentProblems([...partner.documents, planted({ ...partner.documents[0].value, lastName: 'Planted' })]));
    const keys = partner.authKeyLists[0].value.map((k) => ({ ...k, key: 'ak_live_planted' }));
    finds(accountProblems(plant('authKeyLists', planted(keys))));
    const page = partner.historyPages.find((p) => p.value.webhooks.length > 1)!;
    finds(historyProblems(plant('historyPages', { ...page, value: { ...page.value, count: 1 } })));
    // Lena's history: the examples show 4 of her webhooks; the merge owes a second shareholder.verified.
    const userPage = partner.historyPages.find((p) => p.value.webhooks[0]?.type === 'user')!;
    const shown = new Set(partner.events.filter((e) => e.value.data.userId === lena.id).map((e) => e.value.eventId));
    finds(historyProblems(plant('historyPages', { ...userPage, value: { ...userPage.value, count: shown.size } })));
    const all = partner.userPages.find((p) => /all users/i.test(p.description ?? ''))!;
    const allButOne = { users: all.value.users.slice(1), count: all.value.count - 1 };
    finds(userListProblems(plant('userPages', { ...all, value: allButOne })));
    const batch = partner.externalUserBatches.find((b) => b.value.externalUsersWithSuccess.length)!;
    const link = { ...batch.value.externalUsersWithSuccess[0], externalUserId: FOREIGN_ID };
    finds(externalLinkProblems(plant('externalUserBatches', planted({ externalUsersWithSuccess: [link] }))));
    const [created, updated] = ['verification.created', 'verification.updated'].map(
      (t) => samples.partner.find((x) => x.value.eventType === t)!,
    );
    finds(
      eventIdProblems(partner, [created, { ...updated, value: { ...updated.value, eventId: created.value.eventId } }]),
    );
    const record = samples.partner.find((x) => x.schema === 'UserWebhookRecord')!;
    finds(idProblems(partner, [{ ...record, value: { ...record.value, id: partner.verifications[0].id } }], v2));
    const previous = { where: 'planted', schema: 'Verification', value: { previousUserId: partner.users[0].id } };
    finds(previousUserProblems(partner, [previous]));
    const reading = v2.v2Readings.find((r) => r.value.phoneNo === '+4915112345678')!;
    finds(
      crossApiProblems(partner, [{ ...reading, value: { ...reading.value, faceScan: { ageEstimation: 'OVER_18' } } }]),
    );
    finds(
      crossApiProblems(partner, [{ ...reading, value: { ...reading.value, expiresAt: '2026-03-21T09:26:53.589Z' } }]),
    );
    const phone = planted({ ...v2.v2Sessions[0].value, phoneNo: '+4930123456' });
    finds(v2Problems({ ...v2, v2Sessions: [...v2.v2Sessions, phone] }));
  });
});
