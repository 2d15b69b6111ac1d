// Reads the story the examples of the three bundles tell: every user, verification, event,
// device link, auth key, v2 session and verification address an example shows, wherever it
// stands (a renderer's samples included), with where it was seen, for the story checks.
import { isDeepStrictEqual } from 'node:util';
import { exampleValues, isObject, type Seen, schemaSamples } from './examples.js';
import { deref, loadBundle, operationsOf, type Json } from './openapi.js';

/** What tells each record the checks compare from any other object (the shapes the schemas give them). */
const RECORDS = {
  events: (v: Json) => typeof v.eventId === 'string' && typeof v.eventType === 'string' && isObject(v.data),
  webhookRecords: (v: Json) => isObject(v.payload) && typeof v.type === 'string',
  userDevices: (v: Json) => Array.isArray(v.linkedUsersByDevice),
  verificationDevices: (v: Json) => Array.isArray(v.linkedVerificationsByDevice),
  externalUserBatches: (v: Json) => Array.isArray(v.externalUsersWithSuccess),
  authKeyLists: (v: Json) => Array.isArray(v.authKeys),
  /** `{users, count}` and `{webhooks, count}` pages, with their example's description. */
  userPages: (v: Json) => Array.isArray(v.users) && typeof v.count === 'number',
  historyPages: (v: Json) => Array.isArray(v.webhooks) && typeof v.count === 'number',
  partners: (v: Json) => typeof v.webhookUrl === 'string' && typeof v.name === 'string' && typeof v.id === 'string',
  /** Identity documents, by whichever API reads them (collected, user documents, v2). */
  documents: (v: Json) => typeof v.serialNo === 'string',
  v2Sessions: (v: Json) =>
    typeof v.externalId === 'string' && typeof v.phoneNo === 'string' && typeof v.id === 'string',
  /** v2 session data with a face scan, whether or not it has an id yet (the sandbox's create body). */
  v2Readings: (v: Json) => typeof v.phoneNo === 'string' && isObject(v.faceScan),
};

/** The partner statuses, as the partner document lists them: what tells a verification from other records. */
const VERIFICATION_STATUSES = new Set<string>(loadBundle('partner').components.schemas.VerificationStatus.enum);

const VERIFICATION_URL =
  /(https?:\/\/[^/\s"]+)\/s\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\?token=([^&#\s"]*))?/g;

export const time = (iso: string) => Date.parse(iso);
export const groupBy = <T>(items: T[], key: (t: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
};
/** The phone numbers a verification names, old field and new, sorted. */
export const phonesOf = (v: Json): string[] =>
  [
    ...new Set([...(v.phoneNumbers ?? []).map((p: Json) => p.phoneNumber), ...(v.phoneNumber ? [v.phoneNumber] : [])]),
  ].sort();
const nameOf = (o: Json) => `${o.firstName} ${o.lastName}`;
/** A value as a message shows it: its JSON, cut short. */
const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 100);

/**
 * What names one thing shows one value wherever it is seen: `read` gives each
 * item's subject (none: left out) and value; names each item whose value
 * differs from the first one's of its subject, with both places.
 */
export function oneValue<T extends { where: string }>(
  items: T[],
  what: string,
  read: (t: T) => [subject: string | false | null | undefined, value: unknown],
): string[] {
  const seen = items.map((t) => ({ where: t.where, read: read(t) })).filter((t) => t.read[0]);
  return [...groupBy(seen, (t) => String(t.read[0])).values()].flatMap(([first, ...rest]) =>
    rest
      .filter((t) => !isDeepStrictEqual(t.read[1], first.read[1]))
      .map((t) => `${t.read[0]}: ${what} ${shown(t.read[1])} at ${t.where}, ${shown(first.read[1])} at ${first.where}`),
  );
}

/** A user as one example shows it, at one moment (`at`: its `updatedAt`, or the time of the event that carries it). */
function userSnapshot(where: string, v: Json, event?: Json) {
  /** Keyed by phone number, external user id, `first last`; value: when it was added. */
  const byKey = (items: Json[], key: (i: Json) => string) =>
    new Map<string, string>(items.map((i) => [key(i), i.createdAt]));
  return {
    where,
    id: (v.id ?? v.userId) as string,
    at: (v.updatedAt ?? event?.createdAt) as string,
    createdAt: v.createdAt as string,
    phones: byKey(v.phoneNumbers, (p) => p.phoneNumber),
    externalUsers: byKey(v.externalUsers, (e) => e.id),
    /** Absent when the example does not show the history (a list item). */
    names: v.names && byKey(v.names, nameOf),
    currentName: v.firstName !== undefined ? nameOf(v) : undefined,
    dateOfBirth: v.dateOfBirth as string | null | undefined,
    documents: (v.documents ?? []) as Json[],
    estimatedAge: v.estimatedAge as string | undefined,
    /** Sent as the data of `user.deleted`. */
    deleted: event?.eventType === 'user.deleted',
  };
}
export type UserSnapshot = ReturnType<typeof userSnapshot>;

/** The story of one bundle's examples; each `where` starts with the bundle's name. */
function readStory(api: string) {
  const story = {
    ...(Object.fromEntries(Object.keys(RECORDS).map((kind) => [kind, [] as Seen[]])) as {
      [K in keyof typeof RECORDS]: Seen[];
    }),
    users: [] as UserSnapshot[],
    /** `at`: its `updatedAt`; `eventAt`: the time of the webhook that carries it, if any. */
    verifications: [] as { where: string; id: string; at: string; value: Json; eventAt?: string }[],
    /** User ids outside user snapshots (shareholder data, device links, verifications); undated ones name a live user. */
    userMentions: [] as { where: string; userId: string; at?: string; externalUserIds?: string[] }[],
    /** Verification addresses (`…/s/{id}?token=…`); `ownerId`: the `id` of the object whose `url` it is. */
    urls: [] as { where: string; origin: string; verificationId: string; token?: string; ownerId?: string }[],
  };
  const walk = (v: Json, where: string, description?: string, event?: Json, urlOwner?: string) => {
    if (typeof v === 'string')
      for (const [, origin, verificationId, token] of v.matchAll(VERIFICATION_URL))
        story.urls.push({ where, origin, verificationId, token, ownerId: urlOwner });
    if (Array.isArray(v))
      v.forEach((item, i) => {
        walk(item, `${where}/${i}`, description, event);
      });
    if (!isObject(v)) return;
    for (const [kind, is] of Object.entries(RECORDS))
      if (is(v)) story[kind as keyof typeof RECORDS].push({ where, value: v, description });
    // An event's data is seen at the event's moment; `user.deleted` carries the user it deleted.
    if (RECORDS.events(v)) return walk(v.data, `${where}/data`, description, v);
    if (Array.isArray(v.externalUsers) && Array.isArray(v.phoneNumbers) && typeof (v.id ?? v.userId) === 'string')
      story.users.push(userSnapshot(where, v, event));
    const verificationId = v.id ?? v.verificationId;
    if (VERIFICATION_STATUSES.has(v.status) && 'externalUserId' in v && typeof verificationId === 'string') {
      const at = v.updatedAt ?? v.createdAt;
      story.verifications.push({ where, id: verificationId, at, value: v, eventAt: event?.createdAt });
      // `userId` names a live user; `previousUserId` may name one since deleted.
      if (typeof v.userId === 'string') story.userMentions.push({ where, userId: v.userId, at });
    }
    if (typeof v.isShareholder === 'boolean' && Array.isArray(v.externalUserIds))
      story.userMentions.push({ where, userId: v.userId, at: event?.createdAt, externalUserIds: v.externalUserIds });
    for (const device of RECORDS.userDevices(v) ? v.linkedUsersByDevice : [])
      for (const u of device.users) story.userMentions.push({ where, userId: u.userId });
    for (const [key, child] of Object.entries<Json>(v))
      walk(child, `${where}/${key}`, description, event, key === 'url' && typeof v.id === 'string' ? v.id : undefined);
  };
  for (const example of exampleValues(loadBundle(api)))
    walk(example.value, `${api} ${example.where}`, example.description);
  return story;
}
export type Story = ReturnType<typeof readStory>;

/** The users `GET /users` and `GET /users/{userId}` show in their response examples. */
function listedUsers(doc: Json): Seen[] {
  const reads = operationsOf(doc).filter((o) => o.method === 'get' && ['/users', '/users/{userId}'].includes(o.key));
  return reads.flatMap((op) =>
    Object.entries<Json>(op.operation.responses)
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([, response]) => Object.values<Json>(deref(doc, response).content ?? {}))
      .flatMap((media) => Object.entries<Json>(media.examples ?? {}))
      .flatMap(([name, example]) => {
        const value = deref(doc, example).value;
        const where = `GET ${op.key} ${name}`;
        if (!Array.isArray(value?.users)) return [{ where, value }];
        return value.users.map((user: Json, i: number) => ({ where: `${where} users/${i}`, value: user }));
      }),
  );
}

/** What the checks read: the three stories, and the values they compare across bundles. */
export function readWorld() {
  const [partner, v2, sandbox] = ['partner', 'v2', 'sandbox'].map(readStory);
  const samplesOf = (api: string) => schemaSamples(loadBundle(api)).map((s) => ({ ...s, where: `${api} ${s.where}` }));
  const [partnerSamples, v2Samples, sandboxSamples] = ['partner', 'v2', 'sandbox'].map(samplesOf);
  return {
    partner,
    v2,
    /** The samples assembled from the partner schemas' examples. */
    samples: partnerSamples,
    documents: [
      ...[partner, v2, sandbox].flatMap((s) => s.documents),
      ...[...partnerSamples, ...v2Samples, ...sandboxSamples].filter((s) => typeof s.value.serialNo === 'string'),
    ],
    readings: [...v2.v2Readings, ...sandbox.v2Readings],
    urls: [...partner.urls, ...v2.urls, ...sandbox.urls],
    listed: listedUsers(loadBundle('partner')),
    v2Sessions: [...v2.v2Sessions, ...sandbox.v2Sessions, ...v2Samples, ...sandboxSamples],
  };
}
export type World = ReturnType<typeof readWorld>;
