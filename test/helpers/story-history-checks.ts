// Story checks of the entities that change over time: users (names,
// phones, external users, birth date, deletion), who owns a phone number or
// an external user id, verifications along the documented states, and
// webhook bodies with their records. The rules of what "the same" allows
// open test/examples-story.test.ts, which runs these checks.
import { isDeepStrictEqual } from 'node:util';
import type { Json } from './openapi.js';
import { groupBy, phonesOf, time, type Story, type UserSnapshot } from './story.js';

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

export function userProblems(story: Story): string[] {
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

export function deletionProblems(story: Story): string[] {
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
export function ownershipProblems(story: Story): string[] {
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

export function verificationProblems(story: Story): string[] {
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

export function eventProblems(story: Story): string[] {
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
