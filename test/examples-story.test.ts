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
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadBundle, type Json } from './helpers/openapi.js';
import { readStory, schemaSamples, type Story, type UserSnapshot, type VerificationSnapshot } from './helpers/story.js';
import {
  accountProblems,
  crossApiProblems,
  deviceProblems,
  documentProblems,
  eventIdProblems,
  externalLinkProblems,
  groupBy,
  historyProblems,
  idProblems,
  previousUserProblems,
  requestProblems,
  time,
  userListProblems,
  v2Problems,
} from './helpers/story-checks.js';

// The documented transitions (partner document, "States and transitions";
// revert rule 1 adds waitingForUserInput -> reverted).
const NEXT: Record<string, string[]> = {
  created: ['started', 'closed', 'expired'],
  started: ['waitingForUserInput', 'inReview', 'completed', 'declined', 'closed', 'expired'],
  waitingForUserInput: ['inReview', 'completed', 'declined', 'closed', 'expired', 'reverted'],
  inReview: ['completed'],
  completed: ['reverted'],
};
function reachable(from: string, to: string): boolean {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    for (const next of NEXT[queue.shift()!] ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen.has(to);
}

/** When each deleted user was deleted (the `user.deleted` webhook). */
const deletions = (story: Story) => new Map(story.users.filter((u) => u.deleted).map((u) => [u.id, u.at]));

/** Reverts that detached data from a user: [previousUserId, moment]. */
const reverts = (story: Story) =>
  story.verifications
    .filter((v) => v.value.status === 'reverted' && v.value.previousUserId)
    .map((v) => [v.value.previousUserId as string, v.at] as const);

function userProblems(story: Story): string[] {
  const problems: string[] = [];
  const reverted = reverts(story);
  for (const [id, snapshots] of groupBy(story.users, (u) => u.id)) {
    const detachedBetween = (from: string, to: string) =>
      reverted.some(([user, at]) => user === id && time(at) > time(from) && time(at) <= time(to));
    for (const s of snapshots) {
      if (s.createdAt !== snapshots[0].createdAt)
        problems.push(
          `user ${id}: createdAt ${s.createdAt} at ${s.where}, ${snapshots[0].createdAt} at ${snapshots[0].where}`,
        );
      const names = s.names?.map((n) => n.name) ?? [];
      if (s.currentName && names.length && s.currentName !== names.at(-1))
        problems.push(`user ${id}: current name ${s.currentName} is not the last of names [${names}] at ${s.where}`);
      for (const [kind, entries] of [
        ['phone', s.phones],
        ['external user', s.externalUsers],
      ] as const) {
        for (const [key, addedAt] of entries) {
          if (time(addedAt) > time(s.at))
            problems.push(`user ${id}: ${kind} ${key} added at ${addedAt}, after the snapshot (${s.at}) at ${s.where}`);
        }
      }
      for (const doc of s.documents) {
        if (s.dateOfBirth && doc.dateOfBirth !== s.dateOfBirth)
          problems.push(
            `user ${id}: document ${doc.serialNo} born ${doc.dateOfBirth}, user ${s.dateOfBirth} at ${s.where}`,
          );
        if (names.length && !names.includes(`${doc.firstName} ${doc.lastName}`))
          problems.push(
            `user ${id}: document ${doc.serialNo} of ${doc.firstName} ${doc.lastName}, not in names [${names}] at ${s.where}`,
          );
      }
    }
    const births = new Set(snapshots.map((s) => s.dateOfBirth).filter(Boolean));
    if (births.size > 1) problems.push(`user ${id}: dates of birth ${[...births]} in ${snapshots.map((s) => s.where)}`);
    // Every entry added at T is in every snapshot (that shows its kind) at or after T, no revert between.
    for (const [kind, entriesOf] of [
      ['phone', (s: UserSnapshot) => s.phones],
      ['external user', (s: UserSnapshot) => s.externalUsers],
      ['name', (s: UserSnapshot) => s.names && new Map(s.names.map((n) => [n.name, n.createdAt]))],
    ] as const) {
      const known = new Map<string, { addedAt: string; where: string }>();
      for (const s of snapshots) {
        for (const [key, addedAt] of entriesOf(s) ?? []) {
          const first = known.get(key);
          if (!first) known.set(key, { addedAt, where: s.where });
          else if (first.addedAt !== addedAt)
            problems.push(
              `user ${id}: ${kind} ${key} added at ${addedAt} (${s.where}) and at ${first.addedAt} (${first.where})`,
            );
        }
      }
      for (const s of snapshots) {
        const entries = entriesOf(s);
        if (!entries) continue;
        for (const [key, { addedAt, where }] of known) {
          if (!entries.has(key) && time(s.at) >= time(addedAt) && !detachedBetween(addedAt, s.at)) {
            problems.push(
              `user ${id}: ${kind} ${key} (added ${addedAt}, ${where}) missing from the later snapshot at ${s.at} (${s.where})`,
            );
          }
        }
      }
    }
  }
  return problems;
}

function deletionProblems(story: Story): string[] {
  const problems: string[] = [];
  for (const [id, deletedAt] of deletions(story)) {
    for (const s of story.users.filter((u) => u.id === id && !u.deleted && time(u.at) > time(deletedAt))) {
      problems.push(`user ${id} deleted at ${deletedAt} is live at ${s.at} (${s.where})`);
    }
    for (const m of story.userMentions.filter(
      (m) => m.userId === id && (m.at === undefined || time(m.at) > time(deletedAt)),
    )) {
      problems.push(
        `user ${id} deleted at ${deletedAt} is named as a live user ${m.at ? `at ${m.at} ` : ''}(${m.where})`,
      );
    }
  }
  return problems;
}

/** Phone numbers and external user ids: each belongs to one user (a deleted one's may pass to a later user). */
function ownershipProblems(story: Story): string[] {
  const problems: string[] = [];
  const deleted = deletions(story);
  const owners = new Map<string, Map<string, { since?: string; where: string }>>();
  const own = (key: string, userId: string, where: string, since?: string) => {
    const byUser = owners.get(key) ?? new Map();
    owners.set(key, byUser);
    if (!byUser.has(userId)) byUser.set(userId, { since, where });
  };
  for (const s of story.users) {
    for (const [phone, since] of s.phones) own(`phone ${phone}`, s.id, s.where, since);
    for (const [ext, since] of s.externalUsers) own(`external user ${ext}`, s.id, s.where, since);
  }
  for (const v of story.verifications) {
    const user = v.value.userId ?? v.value.previousUserId;
    if (typeof user !== 'string') continue;
    own(`external user ${v.value.externalUserId}`, user, v.where);
    for (const p of v.value.phoneNumbers ?? []) own(`phone ${p.phoneNumber}`, user, v.where);
  }
  for (const m of story.userMentions)
    for (const ext of m.externalUserIds ?? []) own(`external user ${ext}`, m.userId, m.where);
  // A batch link assigns the external user id to the user found by phone number.
  const phoneOwners = (phone: string) => [...(owners.get(`phone ${phone}`)?.keys() ?? [])];
  for (const { where, value } of story.externalUserBatches) {
    for (const link of value.externalUsersWithSuccess) {
      const users = phoneOwners(link.phoneNumber).filter((u) => !deleted.has(u));
      if (users.length === 0)
        problems.push(`${where}: links ${link.externalUserId} to ${link.phoneNumber}, which no live user has`);
      for (const u of users) own(`external user ${link.externalUserId}`, u, where);
    }
    for (const phone of value.unknownPhoneNumbers) {
      for (const u of phoneOwners(phone)) problems.push(`${where}: ${phone} is "unknown" but user ${u} has it`);
    }
  }
  for (const [key, byUser] of owners) {
    const users = [...byUser.entries()];
    const live = users.filter(([u]) => !deleted.has(u));
    if (live.length > 1) problems.push(`${key} belongs to ${live.map(([u, s]) => `${u} (${s.where})`).join(' and ')}`);
    for (const [gone] of users.filter(([u]) => deleted.has(u))) {
      for (const [u, s] of live) {
        if (!s.since || time(s.since) <= time(deleted.get(gone)!))
          problems.push(`${key} of deleted user ${gone} is on ${u} before the deletion (${s.where})`);
      }
    }
  }
  return problems;
}

const SUPPLIED = [
  'externalUserId',
  'firstName',
  'lastName',
  'redirectUrl',
  'errorRedirectUrl',
  'reason',
  'metadata',
  'requirements',
  'createdAt',
  'validTo',
];
const phonesOf = (v: Json) =>
  [
    ...new Set([...(v.phoneNumbers ?? []).map((p: Json) => p.phoneNumber), ...(v.phoneNumber ? [v.phoneNumber] : [])]),
  ].sort();

function verificationProblems(story: Story): string[] {
  const problems: string[] = [];
  const usersById = groupBy(story.users, (u) => u.id);
  for (const [id, snapshots] of groupBy(story.verifications, (v) => v.id)) {
    const first = snapshots[0];
    for (const s of snapshots) {
      for (const field of SUPPLIED) {
        if (field in s.value && field in first.value && !isDeepStrictEqual(s.value[field], first.value[field])) {
          problems.push(
            `verification ${id}: ${field} ${JSON.stringify(s.value[field])} at ${s.where}, ${JSON.stringify(first.value[field])} at ${first.where}`,
          );
        }
      }
      if (!isDeepStrictEqual(phonesOf(s.value), phonesOf(first.value)))
        problems.push(
          `verification ${id}: phones ${phonesOf(s.value)} at ${s.where}, ${phonesOf(first.value)} at ${first.where}`,
        );
      if (time(s.at) < time(s.value.createdAt))
        problems.push(`verification ${id}: updatedAt before createdAt at ${s.where}`);
      if (s.eventAt && time(s.eventAt) < time(s.at))
        problems.push(
          `verification ${id}: webhook sent at ${s.eventAt}, before its data's updatedAt ${s.at} (${s.where})`,
        );
      if (s.value.userId && s.value.status !== 'completed')
        problems.push(`verification ${id}: userId while ${s.value.status} at ${s.where}`);
    }
    // Collected data, once there, stays the same.
    for (const s of snapshots) {
      for (const entry of s.value.collectedRequirements ?? []) {
        const earlier = first.value.collectedRequirements?.find((e: Json) => e.type === entry.type);
        if (entry.result && earlier?.result && !isDeepStrictEqual(entry.result, earlier.result))
          problems.push(`verification ${id}: collected ${entry.type} differs at ${s.where} and ${first.where}`);
      }
    }
    const users = new Set(snapshots.map((s) => s.value.userId ?? s.value.previousUserId).filter(Boolean));
    if (users.size > 1) problems.push(`verification ${id}: users ${[...users]} in ${snapshots.map((s) => s.where)}`);
    const ordered = [...snapshots].sort((a, b) => time(a.at) - time(b.at));
    for (let i = 1; i < ordered.length; i++) {
      const [a, b] = [ordered[i - 1], ordered[i]];
      if (!reachable(a.value.status, b.value.status))
        problems.push(
          `verification ${id}: ${a.value.status} at ${a.at} (${a.where}) cannot become ${b.value.status} at ${b.at} (${b.where})`,
        );
      if (a.at === b.at && a.value.status !== b.value.status)
        problems.push(`verification ${id}: ${a.value.status} and ${b.value.status} at the same moment ${a.at}`);
    }
    // A completed verification's user holds its data from the completion on (until a revert detaches it).
    const revertedAt = snapshots.find((s) => s.value.status === 'reverted')?.at;
    for (const s of snapshots.filter((s) => s.value.status === 'completed' && s.value.userId)) {
      const collectedName = s.value.collectedRequirements?.find((e: Json) => e.type === 'firstAndLastName')?.result;
      const birth = s.value.collectedRequirements?.find((e: Json) => e.type === 'dateOfBirth')?.result?.dateOfBirth;
      for (const u of usersById.get(s.value.userId) ?? []) {
        if (time(u.createdAt) > time(s.at))
          problems.push(
            `verification ${id} completed at ${s.at} with user ${u.id} created later (${u.createdAt}, ${u.where})`,
          );
        if (birth && u.dateOfBirth && birth !== u.dateOfBirth)
          problems.push(
            `verification ${id} collected birth date ${birth}, its user ${u.id} has ${u.dateOfBirth} (${u.where})`,
          );
        if (time(u.at) < time(s.at) || (revertedAt && time(u.at) >= time(revertedAt))) continue;
        if (!u.externalUsers.has(s.value.externalUserId))
          problems.push(
            `verification ${id} (${s.where}) completed at ${s.at}; its user lacks external user ${s.value.externalUserId} at ${u.at} (${u.where})`,
          );
        for (const phone of phonesOf(s.value))
          if (!u.phones.has(phone))
            problems.push(
              `verification ${id} completed at ${s.at}; its user lacks phone ${phone} at ${u.at} (${u.where})`,
            );
        if (
          collectedName &&
          u.names &&
          !u.names.some((n) => n.name === `${collectedName.firstName} ${collectedName.lastName}`)
        ) {
          problems.push(
            `verification ${id} (${s.where}) collected the name ${collectedName.firstName} ${collectedName.lastName}; its user's names at ${u.at} are [${u.names?.map((n) => n.name)}] (${u.where})`,
          );
        }
      }
    }
  }
  return problems;
}

function eventProblems(story: Story): string[] {
  const problems: string[] = [];
  for (const [eventId, seen] of groupBy(story.events, (e) => e.value.eventId)) {
    for (const e of seen.slice(1))
      if (!isDeepStrictEqual(e.value, seen[0].value))
        problems.push(`event ${eventId} differs at ${e.where} and ${seen[0].where}`);
  }
  for (const { where, value: record } of story.webhookRecords) {
    const data = record.payload.data;
    // The user's history also keeps the shareholder webhooks about the user (sandbox S10).
    const holds = record.type === 'user' ? ['user', 'shareholder'] : [record.type];
    if (!holds.includes(record.payload.dataType))
      problems.push(`${where}: record of type ${record.type} holds a ${record.payload.dataType} webhook`);
    if (record.verificationId && record.verificationId !== data.verificationId)
      problems.push(`${where}: record of verification ${record.verificationId} holds data of ${data.verificationId}`);
    if (record.userId && record.userId !== data.userId)
      problems.push(`${where}: record of user ${record.userId} holds data of ${data.userId}`);
    if (time(record.createdAt) < time(record.payload.createdAt))
      problems.push(`${where}: record created before its webhook`);
    if (time(record.updatedAt) < time(record.createdAt))
      problems.push(`${where}: record updated before it was created`);
  }
  return problems;
}

const partner = readStory(loadBundle('partner'));
const v2 = readStory(loadBundle('v2'));
const sandbox = readStory(loadBundle('sandbox'));
const samples = {
  partner: schemaSamples(loadBundle('partner')),
  all: ['partner', 'v2', 'sandbox'].flatMap((api) => schemaSamples(loadBundle(api))),
};
const sampleDocuments = samples.all.filter((s) => typeof s.value.serialNo === 'string');

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

  it('a user has one history of names, phones, external users and birth date', () => {
    expect(userProblems(partner)).toEqual([]);
  });

  it("a deleted user's id never appears again as a live user", () => {
    expect(deletionProblems(partner)).toEqual([]);
  });

  it('a phone number and an external user id belong to one user', () => {
    expect(ownershipProblems(partner)).toEqual([]);
  });

  it('a verification keeps its phones, external user and supplied data, and moves along the documented states', () => {
    expect(verificationProblems(partner)).toEqual([]);
  });

  it('a webhook is the same body wherever it is shown, and its record names its subject', () => {
    expect(eventProblems(partner)).toEqual([]);
  });

  it('device links are the same from every side', () => {
    expect(deviceProblems(partner)).toEqual([]);
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

  it('an error example about a path value answers a request that reaches its operation', () => {
    expect(requestProblems(loadBundle('v2'))).toEqual([]);
    expect(requestProblems(loadBundle('partner'))).toEqual([]);
  });

  it('auth keys and the partner record keep their identity; a rotated key stays inactive', () => {
    expect(accountProblems(partner)).toEqual([]);
  });

  it('v2 sessions agree among themselves', () => {
    expect(v2Problems(v2)).toEqual([]);
  });

  // The checks catch what they claim to: each gets one contradiction planted.
  it('each check finds a planted contradiction', () => {
    const plant = (change: (s: Story) => void) => {
      const story = structuredClone(partner);
      change(story);
      return story;
    };
    const lena = partner.users.find((u) => u.externalUsers.size > 1)!;
    expect(
      userProblems(
        plant((s) => s.users.push({ ...structuredClone(lena), where: 'planted', dateOfBirth: '1990-01-01' })),
      ),
    ).not.toEqual([]);
    expect(
      userProblems(
        plant((s) =>
          s.users.push({
            ...structuredClone(lena),
            where: 'planted',
            at: '2099-01-01T00:00:00.000Z',
            phones: new Map(),
          }),
        ),
      ),
    ).not.toEqual([]);
    const gone = partner.users.find((u) => u.deleted)!;
    expect(deletionProblems(plant((s) => s.userMentions.push({ where: 'planted', userId: gone.id })))).not.toEqual([]);
    const [ext] = lena.externalUsers.keys();
    expect(
      ownershipProblems(
        plant((s) =>
          s.users.push({
            ...structuredClone(gone),
            id: 'usr_planted',
            deleted: false,
            externalUsers: new Map([[ext, gone.createdAt]]),
          }),
        ),
      ),
    ).not.toEqual([]);
    const one = partner.verifications[0];
    const other: VerificationSnapshot = {
      ...one,
      where: 'planted',
      value: { ...one.value, externalUserId: '00000000-0000-4000-8000-000000000000' },
    };
    expect(verificationProblems(plant((s) => s.verifications.push(other)))).not.toEqual([]);
    const event = partner.events[0];
    expect(
      eventProblems(
        plant((s) =>
          s.events.push({ where: 'planted', value: { ...event.value, createdAt: '2099-01-01T00:00:00.000Z' } }),
        ),
      ),
    ).not.toEqual([]);
    const device = partner.userDevices.find((d) => d.value.linkedUsersByDevice.some((x: Json) => x.users.length > 1))!;
    const neighbour = device.value.linkedUsersByDevice
      .flatMap((x: Json) => x.users)
      .find((u: Json) => u.userId !== device.value.userId).userId;
    expect(
      deviceProblems(
        plant((s) => s.userDevices.push({ where: 'planted', value: { userId: neighbour, linkedUsersByDevice: [] } })),
      ),
    ).not.toEqual([]);
    const doc = partner.documents[0];
    expect(
      documentProblems([...partner.documents, { where: 'planted', value: { ...doc.value, lastName: 'Planted' } }]),
    ).not.toEqual([]);
    const keys = partner.authKeyLists[0];
    expect(
      accountProblems(
        plant((s) =>
          s.authKeyLists.push({ where: 'planted', value: keys.value.map((k) => ({ ...k, key: 'ak_live_planted' })) }),
        ),
      ),
    ).not.toEqual([]);
    const page = partner.historyPages.find((p) => p.value.webhooks.length > 1)!;
    expect(
      historyProblems(plant((s) => s.historyPages.push({ ...page, value: { ...page.value, count: 1 } }))),
    ).not.toEqual([]);
    const all = partner.userPages.find((p) => /all users/i.test(p.description ?? ''))!;
    expect(
      userListProblems(
        plant((s) =>
          s.userPages.push({ ...all, value: { users: all.value.users.slice(1), count: all.value.count - 1 } }),
        ),
      ),
    ).not.toEqual([]);
    const batch = partner.externalUserBatches.find((b) => b.value.externalUsersWithSuccess.length)!;
    const link = { ...batch.value.externalUsersWithSuccess[0], externalUserId: '00000000-0000-4000-8000-000000000000' };
    expect(
      externalLinkProblems(
        plant((s) => s.externalUserBatches.push({ where: 'planted', value: { externalUsersWithSuccess: [link] } })),
      ),
    ).not.toEqual([]);
    const [created, updated] = ['verification.created', 'verification.updated'].map(
      (t) => samples.partner.find((x) => x.value.eventType === t)!,
    );
    expect(
      eventIdProblems(partner, [created, { ...updated, value: { ...updated.value, eventId: created.value.eventId } }]),
    ).not.toEqual([]);
    const record = samples.partner.find((x) => x.schema === 'UserWebhookRecord')!;
    expect(
      idProblems(partner, [{ ...record, value: { ...record.value, id: partner.verifications[0].id } }], v2),
    ).not.toEqual([]);
    expect(
      previousUserProblems(partner, [
        { where: 'planted', schema: 'Verification', value: { previousUserId: partner.users[0].id } },
      ]),
    ).not.toEqual([]);
    const reading = v2.v2Readings.find((r) => r.value.phoneNo === '+4915112345678')!;
    expect(
      crossApiProblems(partner, [{ ...reading, value: { ...reading.value, faceScan: { ageEstimation: 'OVER_18' } } }]),
    ).not.toEqual([]);
    expect(
      crossApiProblems(partner, [{ ...reading, value: { ...reading.value, expiresAt: '2026-03-21T09:26:53.589Z' } }]),
    ).not.toEqual([]);
    const session = v2.v2Sessions[0];
    expect(
      v2Problems({
        ...v2,
        v2Sessions: [...v2.v2Sessions, { where: 'planted', value: { ...session.value, phoneNo: '+4930123456' } }],
      }),
    ).not.toEqual([]);
  });
});
