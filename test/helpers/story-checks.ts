// Story checks of records that stand on their own (devices, documents, keys, v2 sessions,
// verification addresses, error examples), of ids across the bundles and the renderers'
// samples, and of one person seen through both APIs.
import { isDeepStrictEqual } from 'node:util';
import { deref, loadBundle, operationsOf, type Json } from './openapi.js';
import { oneValue, phonesOf, time, type World } from './story.js';

/** A `previousUserId` names a user a reverted verification of the examples was detached from. */
export function previousUserProblems({ partner, samples }: World): string[] {
  const reverted = partner.verifications.filter((v) => v.value.status === 'reverted');
  const detached = new Set(reverted.map((v) => v.value.previousUserId));
  return samples
    .filter((s) => typeof s.value.previousUserId === 'string' && !detached.has(s.value.previousUserId))
    .map((s) => `${s.where}: previousUserId ${s.value.previousUserId} names no user a reverted verification left`);
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

/** Every identifier the partner examples and samples show (and the v2 sessions' ids), with what it identifies. */
function identities({ partner: story, samples, v2 }: World) {
  const user = (id: string, where: string) => ({ id, kind: 'user', where });
  return [
    ...story.verifications.flatMap(({ id, where, value }) => [
      { id, kind: 'verification', where },
      ...[value.userId, value.previousUserId].filter(Boolean).map((id) => user(id, where)),
    ]),
    ...story.users.flatMap(({ id, where, externalUsers, documents }) => [
      user(id, where),
      ...[...externalUsers.keys()].map((id) => ({ id, kind: 'external user', where })),
      ...documents.filter((d) => d.id).map((d) => ({ id: d.id, kind: 'document', where })),
    ]),
    ...story.userMentions.map(({ userId, where }) => user(userId, where)),
    ...story.webhookRecords.map(({ value, where }) => ({ id: value.id, kind: `${value.type} webhook record`, where })),
    // An eventId names one webhook, so one event type.
    ...[...story.events, ...samples]
      .filter(({ value }) => typeof value.eventId === 'string' && typeof value.eventType === 'string')
      .map(({ value, where }) => ({ id: value.eventId, kind: `${value.eventType} webhook`, where })),
    ...story.authKeyLists.flatMap(({ value, where }) =>
      value.authKeys.map((k: Json) => ({ id: k.id, kind: 'auth key', where })),
    ),
    ...story.partners.map(({ value, where }) => ({ id: value.id, kind: 'partner', where })),
    ...v2.v2Sessions.map(({ value, where }) => ({ id: value.id, kind: 'v2 session', where })),
    ...samples
      .filter((s) => SAMPLE_KINDS[s.schema] && typeof s.value.id === 'string')
      .map((s) => ({ id: s.value.id, kind: SAMPLE_KINDS[s.schema], where: s.where })),
  ];
}

/**
 * An identifier names one kind of thing: a record is not also a verification,
 * a user record not a verification record, an eventId one event type.
 */
export const idProblems = (world: World) => oneValue(identities(world), 'names a', (u) => [`id ${u.id}`, u.kind]);

/**
 * One person through both APIs: a v2 session and a partner verification of the
 * same phone number created at the same instant are one session (same expiry),
 * and a face scan's age estimate (`OVER_30`) is the estimate of the user holding
 * that phone number (`over30`).
 */
export function crossApiProblems({ partner, readings }: World): string[] {
  return readings.flatMap(({ where, value: s }) => {
    const over = /^OVER_(\d+)$/.exec(s.faceScan.ageEstimation ?? '');
    return [
      ...partner.verifications
        .filter((v) => s.createdAt && v.value.createdAt === s.createdAt && phonesOf(v.value).includes(s.phoneNo))
        .filter((v) => v.value.validTo !== s.expiresAt)
        .map((v) => `${where} expires ${s.expiresAt}; the same session, verification ${v.id}, ${v.value.validTo}`),
      ...partner.users
        .filter((u) => over && u.phones.has(s.phoneNo) && u.estimatedAge && u.estimatedAge !== `over${over[1]}`)
        .map((u) => `${where} estimates ${s.faceScan.ageEstimation}; its user is ${u.estimatedAge} (${u.where})`),
    ];
  });
}

/** Device links are symmetric: every result that shows a device shows the same users (verifications) on it. */
export function deviceProblems({ partner: story }: World): string[] {
  const problems: string[] = [];
  for (const [kind, results, key, listKey, idKey] of [
    ['user', story.userDevices, 'userId', 'linkedUsersByDevice', 'users'],
    ['verification', story.verificationDevices, 'verificationId', 'linkedVerificationsByDevice', 'verifications'],
  ] as const) {
    const devices: { where: string; deviceId: string; ids: string[] }[] = results.flatMap(({ where, value }) =>
      value[listKey].map((device: Json) => ({
        where,
        deviceId: device.deviceId,
        ids: [...new Set([value[key], ...device[idKey].map((x: Json) => x[key])])].sort(),
      })),
    );
    problems.push(...oneValue(devices, 'links', (d) => [`${kind} device ${d.deviceId}`, d.ids]));
    const devicesOf = new Map(results.map(({ value }) => [value[key], value[listKey].map((d: Json) => d.deviceId)]));
    for (const { deviceId, ids, where } of devices)
      for (const id of ids.filter((id) => devicesOf.has(id) && !devicesOf.get(id)!.includes(deviceId)))
        problems.push(`${kind} ${id} shares device ${deviceId} (${where}) but its own result does not list it`);
  }
  return problems;
}

/** Physical documents, by serial number: the same holder and dates wherever they are read. */
export const documentProblems = ({ documents }: World) =>
  ['firstName', 'lastName', 'dateOfBirth', 'placeOfBirth', 'expiryAt', 'issuedAt'].flatMap((field) =>
    oneValue(documents, field, ({ value: d }) => [
      `document ${d.serialNo}`,
      typeof d[field] === 'string' ? d[field].slice(0, 10) : d[field],
    ]),
  );

/** Auth keys and the partner record keep their identity; a rotated key stays inactive; one key is active at a time. */
export function accountProblems({ partner: story }: World): string[] {
  const keys = story.authKeyLists.flatMap(({ where, value }) => {
    const at = value.authKeys.reduce((latest: string, k: Json) => (k.updatedAt > latest ? k.updatedAt : latest), '');
    return value.authKeys.map((k: Json) => ({ where, k, at }));
  });
  const problems = [
    ...oneValue(keys, 'key and createdAt', ({ k }) => [`auth key ${k.id}`, [k.key, k.createdAt]]),
    ...oneValue(keys, 'id', ({ k }) => [`auth key value ${k.key}`, k.id]),
    ...oneValue(story.partners, 'name and createdAt', ({ value: p }) => [`partner ${p.id}`, [p.name, p.createdAt]]),
    ...oneValue(story.partners, 'address', ({ value: p }) => [`partner ${p.id} at ${p.updatedAt}`, p.webhookUrl]),
  ];
  // Rotation makes a key inactive for good.
  for (const x of keys.filter((x) => !x.k.active))
    for (const y of keys.filter((y) => y.k.id === x.k.id && y.k.active && time(y.at) > time(x.at)))
      problems.push(`auth key ${x.k.id}: inactive at ${x.at} (${x.where}), active again at ${y.at} (${y.where})`);
  for (const { where, value } of story.authKeyLists)
    if (value.authKeys.filter((k: Json) => k.active).length > 1) problems.push(`${where}: more than one active key`);
  return problems;
}

/**
 * v2 sessions: one content per id (the sandbox seeds them by id), one session
 * per externalId, ordered timestamps; and one `expiresAt` per id in every
 * bundle's examples and the samples assembled from the schemas.
 */
export function v2Problems({ v2, v2Sessions }: World): string[] {
  const sessions = v2.v2Sessions;
  const problems = [
    ...oneValue(v2Sessions, 'expiresAt', ({ value: s }) => [
      typeof s.id === 'string' && typeof s.expiresAt === 'string' && `v2 session ${s.id}`,
      s.expiresAt,
    ]),
    ...oneValue(sessions, 'content', ({ value: s }) => [`v2 session ${s.id}`, s]),
    ...oneValue(sessions, 'session', ({ value: s }) => [`v2 externalId ${s.externalId}`, s.id]),
    ...oneValue(sessions, 'holder born', ({ value: s }) => [
      s.identityDocument && `v2 phone ${s.phoneNo}`,
      s.identityDocument?.dateOfBirth,
    ]),
  ];
  for (const { where, value: s } of sessions) {
    const { identityDocument: document, faceScan } = s;
    for (const at of [s.createdAt, document?.createdAt, document?.updatedAt, faceScan?.createdAt, faceScan?.updatedAt])
      if (at && (time(at) < time(s.createdAt) || time(at) > time(s.updatedAt)))
        problems.push(`${where}: ${at} outside the session's ${s.createdAt}..${s.updatedAt}`);
    if (time(s.expiresAt) <= time(s.createdAt)) problems.push(`${where}: expires before it is created`);
  }
  return problems;
}

/** An error example about a path value quotes the request it answers, and that request reaches its operation. */
export function requestProblems(): string[] {
  const problems: string[] = [];
  const route = (key: string) => new RegExp(`^${key.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  for (const doc of [loadBundle('v2'), loadBundle('partner')])
    for (const op of operationsOf(doc).filter((o) => o.kind === 'path')) {
      const parameters = (op.operation.parameters ?? []).map((p: Json) => deref(doc, p));
      const pathParams = parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      const method = op.method.toUpperCase();
      for (const [status, response] of Object.entries<Json>(op.operation.responses ?? {})) {
        if (!status.startsWith('4')) continue;
        for (const media of Object.values<Json>(deref(doc, response).content ?? {}))
          for (const [name, ref] of Object.entries<Json>(media.examples ?? {})) {
            const example = deref(doc, ref);
            if (!(example.value?.details ?? []).some((d: Json) => pathParams.includes(d.field))) continue;
            const where = `${method} ${op.key} ${status} ${name}`;
            const requests = [...(example.description ?? '').matchAll(/`([A-Z]+) (\/[^`\s]*)`/g)];
            const request = requests.find((m) => m[1] === method);
            if (!request) problems.push(`${where}: names no request it answers`);
            else if (!route(op.key).test(request[2])) problems.push(`${where}: ${request[2]} does not reach ${op.key}`);
          }
      }
    }
  return problems;
}

/** The local sandbox's own address: its `url` tokens are random (S9), not the service's shape. */
const LOCAL_SANDBOX = 'http://127.0.0.1:4020';

/**
 * The token the service's addresses carry, as the v2 examples show it: the
 * base64url of `{"sid":"…"}`, the first eight hex digits of the verification id.
 */
const serviceToken = (verificationId: string) =>
  Buffer.from(JSON.stringify({ sid: verificationId.slice(0, 8) })).toString('base64url');

/** True when the token is base64url (written as such: it reads back the same) that decodes to that shape for this id. */
function decodesAsServiceToken(token: string, verificationId: string): boolean {
  const bytes = Buffer.from(token, 'base64url');
  try {
    const decoded = JSON.parse(bytes.toString('utf8'));
    return bytes.toString('base64url') === token && isDeepStrictEqual(decoded, { sid: verificationId.slice(0, 8) });
  } catch {
    return false;
  }
}

/** One token per verification; the service's tokens decode as the v2 ones do; a `url` names its own verification. */
export function urlTokenProblems({ urls }: World): string[] {
  const problems = oneValue(urls, 'url token', (u) => [`verification ${u.verificationId}`, u.token]);
  for (const { where, origin, verificationId: id, token, ownerId } of urls) {
    if (ownerId && ownerId !== id) problems.push(`${where}: the url of ${ownerId} points at verification ${id}`);
    if (origin !== LOCAL_SANDBOX && (token === undefined || !decodesAsServiceToken(token, id)))
      problems.push(
        `${where}: token ${token} of ${id} is not base64url of {"sid":"${id.slice(0, 8)}"}; write token=${serviceToken(id)}`,
      );
  }
  return problems;
}

/** A user the list and the details both show is shown at one moment: one `updatedAt`, one set of external users. */
export const listingProblems = ({ listed }: World) =>
  oneValue(listed, 'updatedAt and external users', ({ value: u }) => [
    `user ${u.id}`,
    [u.updatedAt, u.externalUsers.map((e: Json) => `${e.id} (${e.createdAt})`).sort()],
  ]);

/**
 * `partnerUserId` identifies the created link ("the documentation says nothing
 * more about it", its schema says): an example never shows a service user's id there.
 */
export function partnerUserIdProblems(world: World): string[] {
  const { partner: story, samples } = world;
  const userIds = new Set(
    identities(world)
      .filter((u) => u.kind === 'user')
      .map((u) => u.id),
  );
  const links = [
    ...story.externalUserBatches.flatMap(({ where, value }) =>
      value.externalUsersWithSuccess.map((link: Json) => ({ where, link })),
    ),
    ...samples.filter((s) => typeof s.value.partnerUserId === 'string').map((s) => ({ where: s.where, link: s.value })),
  ];
  return links
    .filter(({ link }) => userIds.has(link.partnerUserId))
    .map(({ where, link }) => `${where}: partnerUserId ${link.partnerUserId} is a service user's id`);
}
