// Story checks of what changes over time: users, who owns a phone number or an external
// user id, verifications along the documented states, webhooks, their records and pages.
import { type Json, loadBundle } from './openapi.js';
import { ASSUMED_TRANSITIONS, TRANSITIONS } from './partner-document.js';
import { groupBy, oneValue, phonesOf, type Story, time, type UserSnapshot, type World } from './story.js';

// The documented transitions, and the one revert rule 1 adds.
const NEXT = groupBy([...TRANSITIONS, ...ASSUMED_TRANSITIONS], ([from]) => from);
function reachable(from: string, to: string): boolean {
  const seen = new Set([from]);
  for (const state of seen) for (const [, next] of NEXT.get(state) ?? []) seen.add(next);
  return seen.has(to);
}

/** When each deleted user was deleted (the `user.deleted` webhook). */
const deletions = (story: Story) => new Map(story.users.filter((u) => u.deleted).map((u) => [u.id, u.at]));

/** The entries of a user that grow over time, by kind; `names` is absent where a snapshot does not show them. */
const ENTRIES: [string, (s: UserSnapshot) => Map<string, string> | undefined][] = [
  ['phone', (s) => s.phones],
  ['external user', (s) => s.externalUsers],
  ['name', (s) => s.names],
];

/**
 * A user's phone numbers, external users and `names` grow over time
 * (`user.updated`, `user.merged`); each entry keeps the `createdAt` it was
 * added at. A snapshot at moment T (its `updatedAt`, or the time of the
 * webhook carrying it) holds exactly the entries added at or before T, unless
 * a revert detached data in between (revert rule 2). The current name is the
 * last `names` entry; a date of birth, once known, never changes.
 */
export function userProblems({ partner: story }: World): string[] {
  const entries = story.users.flatMap((s) =>
    ENTRIES.flatMap(([kind, of]) =>
      [...(of(s) ?? [])].map(([key, addedAt]) => ({ where: s.where, id: s.id, kind, key, addedAt })),
    ),
  );
  const problems = [
    ...oneValue(story.users, 'createdAt', (u) => [`user ${u.id}`, u.createdAt]),
    ...oneValue(story.users, 'date of birth', (u) => [u.dateOfBirth && `user ${u.id}`, u.dateOfBirth]),
    ...oneValue(entries, 'added at', (e) => [`user ${e.id}: ${e.kind} ${e.key}`, e.addedAt]),
  ];
  // Reverts that detached data from a user: [previousUserId, moment].
  const reverts = story.verifications
    .filter((v) => v.value.status === 'reverted' && v.value.previousUserId)
    .map((v) => [v.value.previousUserId as string, v.at] as const);
  const firstSeen = [...groupBy(entries, (e) => `${e.id} ${e.kind} ${e.key}`).values()].map((seen) => seen[0]);
  for (const s of story.users) {
    const say = (problem: string) => problems.push(`user ${s.id}: ${problem} at ${s.where}`);
    const names = [...(s.names?.keys() ?? [])];
    if (s.currentName && names.length && s.currentName !== names.at(-1))
      say(`current name ${s.currentName} is not the last of names [${names}]`);
    for (const [kind, of] of ENTRIES.slice(0, 2))
      for (const [key, addedAt] of of(s)!)
        if (time(addedAt) > time(s.at)) say(`${kind} ${key} added at ${addedAt}, after the snapshot (${s.at})`);
    for (const doc of s.documents) {
      if (s.dateOfBirth && doc.dateOfBirth !== s.dateOfBirth)
        say(`document ${doc.serialNo} born ${doc.dateOfBirth}, the user ${s.dateOfBirth}`);
      if (names.length && !names.includes(`${doc.firstName} ${doc.lastName}`))
        say(`document ${doc.serialNo} of ${doc.firstName} ${doc.lastName}, not in names [${names}]`);
    }
    // Every entry added at T is in every snapshot (that shows its kind) at or after T, no revert between.
    for (const e of firstSeen.filter((e) => e.id === s.id)) {
      const entries = ENTRIES.find(([kind]) => kind === e.kind)![1](s);
      const detached = reverts.some(([u, at]) => u === s.id && time(at) > time(e.addedAt) && time(at) <= time(s.at));
      if (entries && !entries.has(e.key) && time(s.at) >= time(e.addedAt) && !detached)
        say(`${e.kind} ${e.key} (added ${e.addedAt}, ${e.where}) missing from the later snapshot at ${s.at}`);
    }
  }
  return problems;
}

/**
 * A deleted user's id never appears again as a live user: only in snapshots
 * dated no later than its deletion, or as a verification's `previousUserId`.
 */
export function deletionProblems({ partner: story }: World): string[] {
  return [...deletions(story)].flatMap(([id, deletedAt]) => [
    ...story.users
      .filter((u) => u.id === id && !u.deleted && time(u.at) > time(deletedAt))
      .map((s) => `user ${id} deleted at ${deletedAt} is live at ${s.at} (${s.where})`),
    ...story.userMentions
      .filter((m) => m.userId === id && (m.at === undefined || time(m.at) > time(deletedAt)))
      .map((m) => `user ${id} deleted at ${deletedAt} is named as a live user ${m.at ?? 'undated'} (${m.where})`),
  ]);
}

/** Phone numbers and external user ids: each belongs to one user (a deleted one's may pass to a later user). */
export function ownershipProblems({ partner: story }: World): string[] {
  const problems: string[] = [];
  const deleted = deletions(story);
  const claims: { key: string; user: string; where: string; since?: string }[] = [
    ...story.users.flatMap(({ id: user, where, phones, externalUsers }) => [
      ...[...phones].map(([phone, since]) => ({ key: `phone ${phone}`, user, where, since })),
      ...[...externalUsers].map(([ext, since]) => ({ key: `external user ${ext}`, user, where, since })),
    ]),
    ...story.verifications.flatMap(({ where, value: v }) => {
      const user = v.userId ?? v.previousUserId;
      if (typeof user !== 'string') return [];
      const phones = (v.phoneNumbers ?? []).map((p: Json) => ({ key: `phone ${p.phoneNumber}`, user, where }));
      return [{ key: `external user ${v.externalUserId}`, user, where }, ...phones];
    }),
    ...story.userMentions.flatMap(({ userId: user, where, externalUserIds }) =>
      (externalUserIds ?? []).map((ext) => ({ key: `external user ${ext}`, user, where })),
    ),
  ];
  // A batch link assigns the external user id to the user found by phone number.
  const phoneOwners = (phone: string) => new Set(claims.filter((c) => c.key === `phone ${phone}`).map((c) => c.user));
  for (const { where, value } of story.externalUserBatches) {
    for (const link of value.externalUsersWithSuccess) {
      const users = [...phoneOwners(link.phoneNumber)].filter((u) => !deleted.has(u));
      if (users.length === 0)
        problems.push(`${where}: links ${link.externalUserId} to ${link.phoneNumber}, which no live user has`);
      for (const user of users) claims.push({ key: `external user ${link.externalUserId}`, user, where });
    }
    for (const phone of value.unknownPhoneNumbers)
      for (const u of phoneOwners(phone)) problems.push(`${where}: ${phone} is "unknown" but user ${u} has it`);
  }
  // A user's first claim on a key says since when it holds it.
  for (const [key, byUser] of groupBy(claims, (c) => c.key)) {
    const holders = [...groupBy(byUser, (c) => c.user).values()].map((seen) => seen[0]);
    const live = holders.filter((c) => !deleted.has(c.user));
    if (live.length > 1) problems.push(`${key} belongs to ${live.map((c) => `${c.user} (${c.where})`).join(' and ')}`);
    for (const gone of holders.filter((c) => deleted.has(c.user)))
      for (const c of live.filter((c) => !c.since || time(c.since) <= time(deleted.get(gone.user)!)))
        problems.push(`${key} of deleted user ${gone.user} is on ${c.user} before the deletion (${c.where})`);
  }
  return problems;
}

/** What the partner supplies to a verification (its phones compared apart), its creation and expiry: they never change. */
const SUPPLIED = [
  ...Object.keys(loadBundle('partner').components.schemas.VerificationCreate.properties).filter(
    (f) => !f.startsWith('phone'),
  ),
  'createdAt',
  'validTo',
];

/**
 * A verification's status moves only along the documented transitions as its
 * `updatedAt` grows; a completed verification's user holds its external user,
 * phones and collected name from then on.
 */
export function verificationProblems({ partner: story }: World): string[] {
  const verifications = story.verifications;
  const collected = verifications.flatMap(({ where, id, value }) =>
    (value.collectedRequirements ?? []).filter((e: Json) => e.result).map((e: Json) => ({ where, id, ...e })),
  );
  const problems = [
    ...SUPPLIED.flatMap((field) =>
      oneValue(verifications, field, (v) => [field in v.value && `verification ${v.id}`, v.value[field]]),
    ),
    ...oneValue(verifications, 'phones', (v) => [`verification ${v.id}`, phonesOf(v.value)]),
    ...oneValue(verifications, 'user', (v) => {
      const user = v.value.userId ?? v.value.previousUserId;
      return [user && `verification ${v.id}`, user];
    }),
    // Collected data, once there, stays the same.
    ...oneValue(collected, 'result', (e) => [`verification ${e.id}: collected ${e.type}`, e.result]),
  ];
  for (const s of verifications) {
    const say = (problem: string) => problems.push(`verification ${s.id}: ${problem} (${s.where})`);
    if (time(s.at) < time(s.value.createdAt)) say('updatedAt before createdAt');
    if (s.eventAt && time(s.eventAt) < time(s.at)) say(`webhook sent at ${s.eventAt}, before its data's ${s.at}`);
    if (s.value.userId && s.value.status !== 'completed') say(`userId while ${s.value.status}`);
  }
  const usersById = groupBy(story.users, (u) => u.id);
  for (const [id, snapshots] of groupBy(verifications, (v) => v.id)) {
    const ordered = [...snapshots].sort((a, b) => time(a.at) - time(b.at));
    for (const [a, b] of ordered.slice(1).map((b, i) => [ordered[i], b])) {
      const [from, to] = [`${a.value.status} at ${a.at} (${a.where})`, `${b.value.status} at ${b.at} (${b.where})`];
      if (!reachable(a.value.status, b.value.status)) problems.push(`verification ${id}: ${from} cannot become ${to}`);
      if (a.at === b.at && a.value.status !== b.value.status)
        problems.push(`verification ${id}: ${from} and ${to} at the same moment`);
    }
    // A completed verification's user holds its data from the completion on (until a revert detaches it).
    const revertedAt = snapshots.find((s) => s.value.status === 'reverted')?.at;
    for (const s of snapshots.filter((s) => s.value.status === 'completed' && s.value.userId)) {
      const result = (type: string) => s.value.collectedRequirements?.find((e: Json) => e.type === type)?.result;
      const name =
        result('firstAndLastName') && `${result('firstAndLastName').firstName} ${result('firstAndLastName').lastName}`;
      const birth = result('dateOfBirth')?.dateOfBirth;
      for (const u of usersById.get(s.value.userId) ?? []) {
        const say = (problem: string) =>
          problems.push(`verification ${id} (${s.where}) completed at ${s.at}; ${problem} (${u.where})`);
        if (time(u.createdAt) > time(s.at)) say(`its user ${u.id} was created later, ${u.createdAt}`);
        if (birth && u.dateOfBirth && birth !== u.dateOfBirth)
          say(`it collected ${birth}, its user has ${u.dateOfBirth}`);
        if (time(u.at) < time(s.at) || (revertedAt && time(u.at) >= time(revertedAt))) continue;
        const lacks = (what: string) => say(`its user lacks ${what} at ${u.at}`);
        if (!u.externalUsers.has(s.value.externalUserId)) lacks(`external user ${s.value.externalUserId}`);
        for (const phone of phonesOf(s.value)) if (!u.phones.has(phone)) lacks(`phone ${phone}`);
        if (name && u.names && !u.names.has(name)) lacks(`the collected name ${name}`);
      }
    }
  }
  return problems;
}

/** Webhook records store "the full webhook body sent": the same `eventId` is the same body everywhere. */
export function eventProblems({ partner: story }: World): string[] {
  const problems = oneValue(story.events, 'body', (e) => [`event ${e.value.eventId}`, e.value]);
  for (const { where, value: record } of story.webhookRecords) {
    const { data, dataType, createdAt: sentAt } = record.payload;
    const say = (problem: string) => problems.push(`${where}: record ${problem}`);
    // The user's history also keeps the shareholder webhooks about the user (sandbox S10).
    const holds = record.type === 'user' ? ['user', 'shareholder'] : [record.type];
    if (!holds.includes(dataType)) say(`of type ${record.type} holds a ${dataType} webhook`);
    if (record.verificationId && record.verificationId !== data.verificationId)
      say(`of verification ${record.verificationId} holds data of ${data.verificationId}`);
    if (record.userId && record.userId !== data.userId) say(`of user ${record.userId} holds data of ${data.userId}`);
    if (time(record.createdAt) < time(sentAt)) say('created before its webhook');
    if (time(record.updatedAt) < time(record.createdAt)) say('updated before it was created');
  }
  return problems;
}

/** The webhooks the examples show about one subject, by history ("user" holds user and shareholder events). */
function eventsAbout(story: Story, type: string, subject: string): Json[] {
  const about = (e: Json) =>
    type === 'user'
      ? ['user', 'shareholder'].includes(e.dataType) && e.data.userId === subject
      : e.dataType === 'verification' && e.data.verificationId === subject;
  return [...new Map(story.events.filter((e) => about(e.value)).map((e) => [e.value.eventId, e.value])).values()];
}

/**
 * The webhooks of a user that the documented rules imply beyond the ones the
 * examples show: `shareholder.verified` is "sent every time" a verification of
 * a shareholder completes, so each completion (`user.created`, `user.merged`)
 * from the one the first `shareholder.verified` follows onward owes one; and
 * `user.updated` is sent when a phone is added or personal data changes, one
 * per step in the "New user" sequence, so each moment a phone number or name
 * was added outside a completion owes one.
 */
function impliedUserEvents(story: Story, userId: string, known: Json[]): number {
  const of = (types: string[]) => known.filter((e) => types.includes(e.eventType));
  const shareholder = of(['shareholder.verified']).map((e) => time(e.createdAt));
  const completions = of(['user.created', 'user.merged']);
  const completed = completions.map((e) => time(e.createdAt)).sort((a, b) => a - b);
  const firstVerified = completed.filter((t) => t <= Math.min(...shareholder)).at(-1) ?? Math.min(...shareholder);
  const owedShareholder = shareholder.length
    ? completed.filter((t) => t >= firstVerified).length - shareholder.length
    : 0;
  const changes = new Set(
    story.users
      .filter((u) => u.id === userId && !u.deleted)
      .flatMap((u) => [...u.phones.values(), ...(u.names?.values() ?? [])]),
  );
  for (const e of completions)
    for (const entry of [...(e.data.phoneNumbers ?? []), ...(e.data.names ?? [])]) changes.delete(entry.createdAt);
  const owedUpdates = changes.size - of(['user.updated']).length;
  return Math.max(0, owedShareholder) + Math.max(0, owedUpdates);
}

/**
 * A history page holds every webhook of its subject sent between its first and
 * its last record, and counts at least every webhook the examples show and the
 * documented rules imply; a page holding all of them (`count` = its length)
 * holds each one.
 */
export function historyProblems({ partner: story }: World): string[] {
  const problems: string[] = [];
  for (const { where, value: page } of story.historyPages.filter((p) => p.value.webhooks.length)) {
    const { type, userId, verificationId } = page.webhooks[0];
    const subject = userId ?? verificationId;
    const shown = new Set(page.webhooks.map((r: Json) => r.payload.eventId));
    const times = page.webhooks.map((r: Json) => time(r.payload.createdAt));
    const known = eventsAbout(story, type, subject);
    for (const e of known.filter((e) => !shown.has(e.eventId))) {
      if (time(e.createdAt) > Math.min(...times) && time(e.createdAt) < Math.max(...times))
        problems.push(`${where}: skips ${e.eventType} ${e.eventId} of ${e.createdAt}, sent between its records`);
      if (page.count === page.webhooks.length)
        problems.push(`${where}: count ${page.count} says it holds every webhook of ${subject}, but not ${e.eventId}`);
    }
    const implied = type === 'user' ? impliedUserEvents(story, subject, known) : 0;
    if (page.count < known.length + implied)
      problems.push(`${where}: count ${page.count}, but ${known.length} webhooks are shown and ${implied} implied`);
  }
  return problems;
}

/** A user page described as holding all users holds every user alive at its moment (its latest `updatedAt`). */
export function userListProblems({ partner: story }: World): string[] {
  const problems: string[] = [];
  const deletedAt = deletions(story);
  for (const { where, value: page, description } of story.userPages) {
    if (!/\ball users\b/i.test(description ?? '')) continue;
    const moment = Math.max(...page.users.map((u: Json) => time(u.updatedAt)));
    const listed = new Set(page.users.map((u: Json) => u.id));
    for (const [id, [first]] of groupBy(story.users, (u) => u.id)) {
      const alive = time(first.createdAt) <= moment && !(deletedAt.has(id) && time(deletedAt.get(id)!) <= moment);
      if (alive && !listed.has(id)) problems.push(`${where} says all users but omits user ${id} (${first.where})`);
    }
    if (page.count !== page.users.length)
      problems.push(`${where} says all users but count ${page.count} is not its ${page.users.length} users`);
  }
  return problems;
}

/**
 * A link `POST /users/external-users` created shows in some snapshot of the
 * user holding its phone number: the service finds the user by that number,
 * and `partnerUserId` is not documented to name the user.
 */
export const externalLinkProblems = ({ partner: story }: World) =>
  story.externalUserBatches.flatMap(({ where, value }) =>
    value.externalUsersWithSuccess
      .filter((link: Json) =>
        story.users.every((u) => !u.phones.has(link.phoneNumber) || !u.externalUsers.has(link.externalUserId)),
      )
      .map(
        (link: Json) => `${where}: links ${link.externalUserId} to the user of ${link.phoneNumber}, who never shows it`,
      ),
  );
