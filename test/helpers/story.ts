// Reads the story the examples of a bundled document tell: every user,
// verification, event, device link, auth key and v2 session an example
// shows, wherever it stands (a response, a request, a webhook, a webhook
// record's payload, a list item). test/examples-story.test.ts checks that the
// examples agree with one another.
import { examplesOf } from './examples.js';
import { deref, loadBundle, type Json } from './openapi.js';

export interface Seen<T> {
  where: string;
  value: T;
  /** The description of the named example it stands in, if any. */
  description?: string;
}

/** A user as one example shows it, at one moment (`at`). */
export interface UserSnapshot {
  where: string;
  id: string;
  /** The moment the snapshot shows: `updatedAt`, or the time of the event that carries it. */
  at: string;
  createdAt: string;
  /** Keyed by phone number, external user id, `first last`; value: when it was added. */
  phones: Map<string, string>;
  externalUsers: Map<string, string>;
  /** Absent when the example does not show the history (a list item). */
  names?: { name: string; createdAt: string }[];
  currentName?: string;
  dateOfBirth?: string | null;
  documents: Json[];
  estimatedAge?: string;
  /** Sent as the data of `user.deleted`. */
  deleted: boolean;
}

interface VerificationSnapshot {
  where: string;
  id: string;
  at: string;
  value: Json;
  /** The time of the webhook that carries it, if any. */
  eventAt?: string;
}

interface UserMention {
  where: string;
  userId: string;
  /** When the mention is dated (a snapshot, an event); undated mentions name a live user. */
  at?: string;
  externalUserIds?: string[];
}

export interface Story {
  users: UserSnapshot[];
  verifications: VerificationSnapshot[];
  events: Seen<Json>[];
  webhookRecords: Seen<Json>[];
  userDevices: Seen<Json>[];
  verificationDevices: Seen<Json>[];
  /** Mentions of a user id outside user snapshots (shareholder data, device links, verifications). */
  userMentions: UserMention[];
  externalUserBatches: Seen<Json>[];
  authKeyLists: Seen<Json[]>[];
  /** `{users, count}` pages and `{webhooks, count}` history pages, with their example's description. */
  userPages: Seen<Json>[];
  historyPages: Seen<Json>[];
  partners: Seen<Json>[];
  /** Identity documents, by whichever API reads them (collected, user documents, v2). */
  documents: Seen<Json>[];
  v2Sessions: Seen<Json>[];
  /** v2 session data with a face scan, whether or not it has an id yet (the sandbox's create body). */
  v2Readings: Seen<Json>[];
}

/** The partner statuses, as the partner document lists them: what tells a verification from other records. */
const VERIFICATION_STATUSES = new Set<string>(loadBundle('partner').components.schemas.VerificationStatus.enum);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A sample a renderer assembles from schema-level examples (`schema`: the component it stands in). */
export type Sample = Seen<Json> & { schema: string };
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

function userSnapshot(
  where: string,
  v: Json,
  eventAt: string | undefined,
  eventType: string | undefined,
): UserSnapshot {
  const byKey = (items: Json[], key: string) => new Map<string, string>(items.map((i) => [i[key], i.createdAt]));
  return {
    where,
    id: v.id ?? v.userId,
    at: v.updatedAt ?? eventAt,
    createdAt: v.createdAt,
    phones: byKey(v.phoneNumbers, 'phoneNumber'),
    externalUsers: byKey(v.externalUsers, 'id'),
    names: v.names?.map((n: Json) => ({ name: nameOf(n), createdAt: n.createdAt })),
    currentName: v.firstName !== undefined ? nameOf(v) : undefined,
    dateOfBirth: v.dateOfBirth,
    documents: v.documents ?? [],
    estimatedAge: v.estimatedAge,
    deleted: eventType === 'user.deleted',
  };
}

/** Every example value of a document: those its operations and webhooks show and its named examples. */
export function exampleValues(doc: Json): Seen<Json>[] {
  const found: Seen<Json>[] = Object.entries<Json>(doc.components?.examples ?? {}).map(([name, example]) => ({
    where: `#/components/examples/${name}`,
    value: deref(doc, example).value,
    description: deref(doc, example).description,
  }));
  // A media type's `$ref` to a named example resolves to the same value: count it once.
  const named = new Set(found.map((f) => f.value));
  for (const e of examplesOf(doc)) if (!named.has(e.value)) found.push({ where: e.where, value: e.value });
  return found;
}

export function readStory(doc: Json): Story {
  const story: Story = {
    users: [],
    verifications: [],
    events: [],
    webhookRecords: [],
    userDevices: [],
    verificationDevices: [],
    userMentions: [],
    externalUserBatches: [],
    authKeyLists: [],
    userPages: [],
    historyPages: [],
    partners: [],
    documents: [],
    v2Sessions: [],
    v2Readings: [],
  };
  let description: string | undefined;
  const walk = (v: Json, where: string, eventAt?: string, eventType?: string) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        walk(item, `${where}/${i}`, eventAt, eventType);
      });
      return;
    }
    if (!isObject(v)) return;
    if (typeof v.eventId === 'string' && typeof v.eventType === 'string' && isObject(v.data)) {
      story.events.push({ where, value: v });
      return walk(v.data, `${where}/data`, v.createdAt, v.eventType);
    }
    if (isObject(v.payload) && typeof v.type === 'string') story.webhookRecords.push({ where, value: v });
    if (Array.isArray(v.externalUsers) && Array.isArray(v.phoneNumbers) && typeof (v.id ?? v.userId) === 'string') {
      story.users.push(userSnapshot(where, v, eventAt, eventType));
    }
    const verificationId = v.id ?? v.verificationId;
    if (VERIFICATION_STATUSES.has(v.status) && 'externalUserId' in v && typeof verificationId === 'string') {
      story.verifications.push({ where, id: verificationId, at: v.updatedAt ?? v.createdAt, value: v, eventAt });
      // `userId` names a live user; `previousUserId` may name one since deleted.
      if (typeof v.userId === 'string')
        story.userMentions.push({ where, userId: v.userId, at: v.updatedAt ?? v.createdAt });
    }
    if (typeof v.isShareholder === 'boolean' && Array.isArray(v.externalUserIds)) {
      story.userMentions.push({ where, userId: v.userId, at: eventAt, externalUserIds: v.externalUserIds });
    }
    if (Array.isArray(v.linkedUsersByDevice)) {
      story.userDevices.push({ where, value: v });
      for (const device of v.linkedUsersByDevice)
        for (const u of device.users) story.userMentions.push({ where, userId: u.userId });
    }
    if (Array.isArray(v.linkedVerificationsByDevice)) story.verificationDevices.push({ where, value: v });
    if (Array.isArray(v.externalUsersWithSuccess)) story.externalUserBatches.push({ where, value: v });
    if (Array.isArray(v.authKeys)) story.authKeyLists.push({ where, value: v.authKeys });
    if (Array.isArray(v.users) && typeof v.count === 'number') story.userPages.push({ where, value: v, description });
    if (Array.isArray(v.webhooks) && typeof v.count === 'number')
      story.historyPages.push({ where, value: v, description });
    if (typeof v.webhookUrl === 'string' && typeof v.name === 'string' && typeof v.id === 'string')
      story.partners.push({ where, value: v });
    if (typeof v.serialNo === 'string') story.documents.push({ where, value: v });
    if (typeof v.externalId === 'string' && typeof v.phoneNo === 'string' && typeof v.id === 'string')
      story.v2Sessions.push({ where, value: v });
    if (typeof v.phoneNo === 'string' && isObject(v.faceScan)) story.v2Readings.push({ where, value: v });
    for (const [key, child] of Object.entries<Json>(v)) walk(child, `${where}/${key}`, eventAt, eventType);
  };
  for (const example of exampleValues(doc)) {
    description = example.description;
    walk(example.value, example.where);
  }
  return story;
}

/** The first example a schema gives for a value (its own, its `const`, or the one of the schema it refers to); scalars only. */
function sampleOf(doc: Json, schema: Json): unknown {
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length && !isObject(schema.examples[0]))
    return schema.examples[0];
  if ('const' in schema) return schema.const;
  return schema.$ref ? sampleOf(doc, deref(doc, { $ref: schema.$ref })) : undefined;
}

/**
 * The samples a reader sees where a schema has no example of its own: for each
 * schema listing `properties` (a component or a nested object), an object of
 * each property's first example, as renderers such as Redoc assemble them.
 * Only properties with an example are kept; `schema` names the component.
 */
export function schemaSamples(doc: Json): Sample[] {
  const found: Sample[] = [];
  const visit = (schema: Json, where: string, name: string) => {
    if (!isObject(schema) || schema.$ref) return;
    if (isObject(schema.properties)) {
      const value: Json = {};
      for (const [key, property] of Object.entries<Json>(schema.properties)) {
        const sample = sampleOf(doc, property);
        if (sample !== undefined) value[key] = sample;
        visit(property, `${where}/properties/${key}`, name);
      }
      if (Object.keys(value).length > 1) found.push({ where, value, schema: name });
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      (schema[key] ?? []).forEach((sub: Json, i: number) => {
        visit(sub, `${where}/${key}/${i}`, name);
      });
    }
    if (isObject(schema.items)) visit(schema.items, `${where}/items`, name);
  };
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {}))
    visit(schema, `#/components/schemas/${name}`, name);
  return found;
}
