// Story checks on records that stand on their own (devices, documents, keys,
// v2 sessions, error examples) and checks that reach beyond one API's named
// examples: history pages and user lists against the webhooks and users the
// examples show, the samples renderers assemble from schema-level examples,
// and one person seen through both APIs. test/examples-story.test.ts runs
// them beside its checks of users and verifications.
import { isDeepStrictEqual } from 'node:util';
import { deref, operationsOf, type Json } from './openapi.js';
import { groupBy, phonesOf, type Sample, type Seen, type Story, time } from './story.js';

const dateOnly = (d: unknown) => (typeof d === 'string' ? d.slice(0, 10) : d);

/** The webhooks the examples show about one subject, by history ("user" holds user and shareholder events). */
function eventsAbout(story: Story, type: string, subject: string): Json[] {
  const byId = new Map<string, Json>();
  for (const { value: e } of story.events) {
    const about =
      type === 'user'
        ? ['user', 'shareholder'].includes(e.dataType) && e.data.userId === subject
        : e.dataType === 'verification' && e.data.verificationId === subject;
    if (about) byId.set(e.eventId, e);
  }
  return [...byId.values()];
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
  const timesOf = (types: string[]) =>
    known.filter((e) => types.includes(e.eventType)).map((e: Json) => time(e.createdAt));
  const shareholder = timesOf(['shareholder.verified']);
  const completions = timesOf(['user.created', 'user.merged']).sort((a, b) => a - b);
  const firstVerified = completions.filter((t) => t <= Math.min(...shareholder)).at(-1) ?? Math.min(...shareholder);
  const owedShareholder = shareholder.length
    ? completions.filter((t) => t >= firstVerified).length - shareholder.length
    : 0;
  const entryMoments = (u: { phones: Map<string, string>; names?: { createdAt: string }[] }) => [
    ...u.phones.values(),
    ...(u.names ?? []).map((n) => n.createdAt),
  ];
  const byCompletion = new Set(
    known
      .filter((e) => ['user.created', 'user.merged'].includes(e.eventType))
      .flatMap((e: Json) => [...(e.data.phoneNumbers ?? []), ...(e.data.names ?? [])].map((x: Json) => x.createdAt)),
  );
  const changes = new Set(story.users.filter((u) => u.id === userId && !u.deleted).flatMap(entryMoments));
  for (const moment of byCompletion) changes.delete(moment);
  const owedUpdates = changes.size - timesOf(['user.updated']).length;
  return Math.max(0, owedShareholder) + Math.max(0, owedUpdates);
}

/**
 * A history page holds every webhook of its subject sent between its first and
 * its last record, and counts at least every webhook the examples show and the
 * documented rules imply; a page holding all of them (`count` = its length)
 * holds each one.
 */
export function historyProblems(story: Story): string[] {
  const problems: string[] = [];
  for (const { where, value: page } of story.historyPages) {
    if (!page.webhooks.length) continue;
    const type = page.webhooks[0].type;
    const subject = page.webhooks[0].userId ?? page.webhooks[0].verificationId;
    const shown = new Set(page.webhooks.map((r: Json) => r.payload.eventId));
    const times = page.webhooks.map((r: Json) => time(r.payload.createdAt));
    const [first, last] = [Math.min(...times), Math.max(...times)];
    const known = eventsAbout(story, type, subject);
    for (const e of known) {
      if (shown.has(e.eventId)) continue;
      if (time(e.createdAt) > first && time(e.createdAt) < last)
        problems.push(`${where}: skips ${e.eventType} ${e.eventId} of ${e.createdAt}, sent between its records`);
      if (page.count === page.webhooks.length)
        problems.push(
          `${where}: count ${page.count} says the page holds every webhook of ${subject}, but ${e.eventType} ${e.eventId} is missing`,
        );
    }
    const implied = type === 'user' ? impliedUserEvents(story, subject, known) : 0;
    if (page.count < known.length + implied)
      problems.push(
        `${where}: count ${page.count}, but the examples show ${known.length} webhooks of ${subject} and the documented rules imply ${implied} more`,
      );
  }
  return problems;
}

/** A user page described as holding all users holds every user alive at its moment (its latest `updatedAt`). */
export function userListProblems(story: Story): string[] {
  const problems: string[] = [];
  for (const { where, value: page, description } of story.userPages) {
    if (!/\ball users\b/i.test(description ?? '')) continue;
    const moment = Math.max(...page.users.map((u: Json) => time(u.updatedAt)));
    const listed = new Set(page.users.map((u: Json) => u.id));
    const deletedAt = new Map(story.users.filter((u) => u.deleted).map((u) => [u.id, time(u.at)]));
    for (const [id, snapshots] of groupBy(story.users, (u) => u.id)) {
      const alive = time(snapshots[0].createdAt) <= moment && !(deletedAt.has(id) && deletedAt.get(id)! <= moment);
      if (alive && !listed.has(id))
        problems.push(`${where} says all users but omits user ${id} (${snapshots[0].where})`);
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
export function externalLinkProblems(story: Story): string[] {
  const problems: string[] = [];
  for (const { where, value } of story.externalUserBatches) {
    for (const link of value.externalUsersWithSuccess) {
      const snapshots = story.users.filter((u) => u.phones.has(link.phoneNumber));
      if (!snapshots.some((u) => u.externalUsers.has(link.externalUserId))) {
        problems.push(
          `${where}: links ${link.externalUserId} to the user of ${link.phoneNumber}, whose externalUsers never show it (${snapshots.map((u) => u.where)})`,
        );
      }
    }
  }
  return problems;
}

/** An `eventId` names one webhook: the same event type wherever it is shown, schema samples included. */
export function eventIdProblems(story: Story, samples: Sample[]): string[] {
  const pairs = [
    ...story.events.map((e) => ({ where: e.where, eventId: e.value.eventId, eventType: e.value.eventType })),
    ...samples
      .filter((s) => typeof s.value.eventId === 'string' && typeof s.value.eventType === 'string')
      .map((s) => ({ where: s.where, ...s.value })),
  ];
  const problems: string[] = [];
  for (const [eventId, seen] of groupBy(pairs, (p) => p.eventId)) {
    const types = new Set(seen.map((p) => p.eventType));
    if (types.size > 1) problems.push(`eventId ${eventId} is ${[...types]} at ${seen.map((p) => p.where)}`);
  }
  return problems;
}

/** A `previousUserId` names a user a reverted verification of the examples was detached from. */
export function previousUserProblems(story: Story, samples: Sample[]): string[] {
  const detached = new Set(
    story.verifications.filter((v) => v.value.status === 'reverted').map((v) => v.value.previousUserId),
  );
  return samples
    .filter((s) => typeof s.value.previousUserId === 'string' && !detached.has(s.value.previousUserId))
    .map(
      (s) =>
        `${s.where}: previousUserId ${s.value.previousUserId} names no user a reverted verification was detached from ([${[...detached]}])`,
    );
}

/** What the `id` of a schema's sample identifies. */
const SAMPLE_KINDS: Record<string, string> = {
  AuthKey: 'auth key',
  Partner: 'partner',
  Verification: 'verification',
  CreatedVerification: 'verification',
  VerificationRevertResult: 'verification',
  User: 'user',
  UserDocument: 'document',
  ExternalUser: 'external user',
  UserWebhookRecord: 'user webhook record',
  VerificationWebhookRecord: 'verification webhook record',
  Fingerprint: 'fingerprint',
};

/** An identifier names one kind of thing (a record is not also a verification, a user record not a verification record). */
export function idProblems(story: Story, partnerSamples: Sample[], v2Story: Story): string[] {
  const uses: { id: string; kind: string; where: string }[] = [
    ...story.verifications.map((v) => ({ id: v.id, kind: 'verification', where: v.where })),
    ...story.users.map((u) => ({ id: u.id, kind: 'user', where: u.where })),
    ...story.users.flatMap((u) =>
      [...u.externalUsers.keys()].map((id) => ({ id, kind: 'external user', where: u.where })),
    ),
    ...story.users.flatMap((u) =>
      u.documents.filter((d) => d.id).map((d) => ({ id: d.id, kind: 'document', where: u.where })),
    ),
    ...story.webhookRecords.map((r) => ({ id: r.value.id, kind: `${r.value.type} webhook record`, where: r.where })),
    ...story.events.map((e) => ({ id: e.value.eventId, kind: 'webhook', where: e.where })),
    ...story.authKeyLists.flatMap((l) => l.value.map((k) => ({ id: k.id, kind: 'auth key', where: l.where }))),
    ...story.partners.map((p) => ({ id: p.value.id, kind: 'partner', where: p.where })),
    ...v2Story.v2Sessions.map((s) => ({ id: s.value.id, kind: 'v2 session', where: s.where })),
    ...partnerSamples
      .filter((s) => SAMPLE_KINDS[s.schema] && typeof s.value.id === 'string')
      .map((s) => ({ id: s.value.id, kind: SAMPLE_KINDS[s.schema], where: s.where })),
  ];
  const problems: string[] = [];
  for (const [id, seen] of groupBy(uses, (u) => u.id)) {
    const kinds = groupBy(seen, (u) => u.kind);
    if (kinds.size > 1)
      problems.push(`id ${id} names ${[...kinds].map(([kind, at]) => `a ${kind} (${at[0].where})`).join(' and ')}`);
  }
  return problems;
}

/**
 * One person through both APIs: a v2 session and a partner verification of the
 * same phone number created at the same instant are one session (same expiry),
 * and a face scan's age estimate (`OVER_30`) is the estimate of the user holding
 * that phone number (`over30`).
 */
export function crossApiProblems(partner: Story, v2Readings: Seen<Json>[]): string[] {
  const problems: string[] = [];
  for (const { where, value: s } of v2Readings) {
    for (const v of partner.verifications) {
      if (
        s.createdAt &&
        v.value.createdAt === s.createdAt &&
        phonesOf(v.value).includes(s.phoneNo) &&
        v.value.validTo !== s.expiresAt
      ) {
        problems.push(
          `${where} expires ${s.expiresAt}; the same session, verification ${v.id}, ${v.value.validTo} (${v.where})`,
        );
      }
    }
    const over = /^OVER_(\d+)$/.exec(s.faceScan.ageEstimation ?? '');
    if (!over) continue;
    for (const u of partner.users.filter((u) => u.phones.has(s.phoneNo) && u.estimatedAge)) {
      if (u.estimatedAge !== `over${over[1]}`)
        problems.push(
          `${where} estimates ${s.faceScan.ageEstimation} for ${s.phoneNo}; its user ${u.id} is ${u.estimatedAge} (${u.where})`,
        );
    }
  }
  return problems;
}

/** Device links are symmetric: every result that shows a device shows the same users (verifications) on it. */
export function deviceProblems(story: Story): string[] {
  const problems: string[] = [];
  for (const [kind, results, key, listKey, idKey] of [
    ['user', story.userDevices, 'userId', 'linkedUsersByDevice', 'users'],
    ['verification', story.verificationDevices, 'verificationId', 'linkedVerificationsByDevice', 'verifications'],
  ] as const) {
    const devices = new Map<string, { ids: string[]; where: string }>();
    const devicesOf = new Map<string, Set<string>>();
    for (const { where, value } of results) {
      devicesOf.set(value[key], new Set(value[listKey].map((d: Json) => d.deviceId)));
      for (const device of value[listKey]) {
        const ids = [...new Set([value[key], ...device[idKey].map((x: Json) => x[key])])].sort();
        const known = devices.get(device.deviceId);
        if (known && !isDeepStrictEqual(known.ids, ids))
          problems.push(`${kind} device ${device.deviceId}: [${ids}] at ${where}, [${known.ids}] at ${known.where}`);
        devices.set(device.deviceId, { ids, where });
      }
    }
    for (const [deviceId, { ids, where }] of devices) {
      for (const id of ids) {
        if (devicesOf.has(id) && !devicesOf.get(id)!.has(deviceId))
          problems.push(`${kind} ${id} shares device ${deviceId} (${where}) but its own result does not list it`);
      }
    }
  }
  return problems;
}

/** Physical documents, by serial number: the same holder and dates wherever they are read. */
export function documentProblems(documents: Story['documents']): string[] {
  const problems: string[] = [];
  for (const [serialNo, seen] of groupBy(documents, (d) => d.value.serialNo)) {
    for (const d of seen.slice(1)) {
      for (const field of ['firstName', 'lastName', 'dateOfBirth', 'placeOfBirth', 'expiryAt', 'issuedAt']) {
        if (dateOnly(d.value[field]) !== dateOnly(seen[0].value[field])) {
          problems.push(
            `document ${serialNo}: ${field} ${d.value[field]} at ${d.where}, ${seen[0].value[field]} at ${seen[0].where}`,
          );
        }
      }
    }
  }
  return problems;
}

export function accountProblems(story: Story): string[] {
  const problems: string[] = [];
  const keys = story.authKeyLists.flatMap(({ where, value }) =>
    value.map((k) => ({
      where,
      k,
      at:
        value
          .map((x) => x.updatedAt)
          .sort()
          .at(-1) ?? '',
    })),
  );
  for (const [id, seen] of groupBy(keys, (x) => x.k.id)) {
    for (const x of seen) {
      if (x.k.key !== seen[0].k.key || x.k.createdAt !== seen[0].k.createdAt)
        problems.push(`auth key ${id}: differs at ${x.where} and ${seen[0].where}`);
      // Rotation makes a key inactive for good.
      for (const y of seen)
        if (!x.k.active && y.k.active && time(y.at) > time(x.at))
          problems.push(`auth key ${id}: inactive at ${x.at} (${x.where}), active again at ${y.at} (${y.where})`);
    }
  }
  for (const [value, seen] of groupBy(keys, (x) => x.k.key)) {
    if (new Set(seen.map((x) => x.k.id)).size > 1)
      problems.push(`auth key value ${value} has ids ${[...new Set(seen.map((x) => x.k.id))]}`);
  }
  for (const { where, value } of story.authKeyLists)
    if (value.filter((k) => k.active).length > 1) problems.push(`${where}: more than one active key`);
  for (const [id, seen] of groupBy(story.partners, (p) => p.value.id)) {
    for (const p of seen) {
      if (p.value.name !== seen[0].value.name || p.value.createdAt !== seen[0].value.createdAt)
        problems.push(`partner ${id}: differs at ${p.where} and ${seen[0].where}`);
      for (const q of seen)
        if (p.value.updatedAt === q.value.updatedAt && p.value.webhookUrl !== q.value.webhookUrl)
          problems.push(`partner ${id}: two addresses at ${p.value.updatedAt}`);
    }
  }
  return problems;
}

/** v2 sessions: one content per id (the sandbox seeds them by id), one session per externalId, ordered timestamps. */
export function v2Problems(story: Story): string[] {
  const problems: string[] = [];
  for (const [id, seen] of groupBy(story.v2Sessions, (s) => s.value.id)) {
    for (const s of seen.slice(1))
      if (!isDeepStrictEqual(s.value, seen[0].value))
        problems.push(`v2 session ${id} differs at ${s.where} and ${seen[0].where}`);
  }
  for (const [externalId, seen] of groupBy(story.v2Sessions, (s) => s.value.externalId)) {
    if (new Set(seen.map((s) => s.value.id)).size > 1)
      problems.push(`v2 externalId ${externalId} names sessions ${[...new Set(seen.map((s) => s.value.id))]}`);
  }
  for (const { where, value: s } of story.v2Sessions) {
    const steps = [
      s.createdAt,
      s.identityDocument?.createdAt,
      s.identityDocument?.updatedAt,
      s.faceScan?.createdAt,
      s.faceScan?.updatedAt,
    ].filter(Boolean);
    for (const at of steps)
      if (time(at) < time(s.createdAt) || time(at) > time(s.updatedAt))
        problems.push(`${where}: ${at} outside the session's ${s.createdAt}..${s.updatedAt}`);
    if (time(s.expiresAt) <= time(s.createdAt)) problems.push(`${where}: expires before it is created`);
  }
  for (const [phone, seen] of groupBy(
    story.v2Sessions.filter((s) => s.value.identityDocument),
    (s) => s.value.phoneNo,
  )) {
    const births = new Set(seen.map((s) => s.value.identityDocument.dateOfBirth));
    if (births.size > 1) problems.push(`v2 phone ${phone}: holders born ${[...births]}`);
  }
  return problems;
}

/** An error example about a path value quotes the request it answers, and that request reaches its operation. */
export function requestProblems(doc: Json): string[] {
  const problems: string[] = [];
  const route = (key: string) => new RegExp(`^${key.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  for (const op of operationsOf(doc).filter((o) => o.kind === 'path')) {
    const pathParams = (op.operation.parameters ?? [])
      .map((p: Json) => deref(doc, p))
      .filter((p: Json) => p.in === 'path')
      .map((p: Json) => p.name);
    for (const [status, response] of Object.entries<Json>(op.operation.responses ?? {})) {
      if (!status.startsWith('4')) continue;
      for (const media of Object.values<Json>(deref(doc, response).content ?? {})) {
        for (const [name, ref] of Object.entries<Json>(media.examples ?? {})) {
          const example = deref(doc, ref);
          if (!(example.value?.details ?? []).some((d: Json) => pathParams.includes(d.field))) continue;
          const where = `${op.method.toUpperCase()} ${op.key} ${status} ${name}`;
          const [request] = [...(example.description ?? '').matchAll(/`([A-Z]+) (\/[^`\s]*)`/g)].filter(
            (m) => m[1] === op.method.toUpperCase(),
          );
          if (!request) problems.push(`${where}: names no request it answers`);
          else if (!route(op.key).test(request[2])) problems.push(`${where}: ${request[2]} does not reach ${op.key}`);
        }
      }
    }
  }
  return problems;
}
