// Story checks of values that name one thing and so take one value wherever
// the examples show them, in every bundle and in the schemas' own examples:
// a verification's `url` token, a user as the list and the details read it,
// the `partnerUserId` of an external-user link, a v2 session's `expiresAt`.
// test/examples-story.test.ts runs them beside the other story checks.
import { isDeepStrictEqual } from 'node:util';
import { deref, operationsOf, type Json } from './openapi.js';
import { exampleValues, groupBy, type Sample, type Seen, type Story } from './story.js';

/** The local sandbox's own address: its `url` tokens are random (S9), not the service's shape. */
const LOCAL_SANDBOX = 'http://127.0.0.1:4020';

const VERIFICATION_URL =
  /(https?:\/\/[^/\s"]+)\/s\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\?token=([^&#\s"]*))?/g;

export interface UrlMention {
  where: string;
  origin: string;
  verificationId: string;
  /** `undefined` when the address carries no token. */
  token?: string;
  /** The `id` of the object whose `url` it is, if any. */
  ownerId?: string;
}

/** Every verification address (`…/s/{id}?token=…`) the examples of a bundle show. */
export function verificationUrls(doc: Json, api: string): UrlMention[] {
  const found: UrlMention[] = [];
  const walk = (value: Json, where: string, ownerId?: string) => {
    if (typeof value === 'string') {
      for (const [, origin, verificationId, token] of value.matchAll(VERIFICATION_URL))
        found.push({ where, origin, verificationId, token, ownerId });
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries<Json>(value)) {
      const owner = key === 'url' && typeof value.id === 'string' ? value.id : undefined;
      walk(child, `${where}/${key}`, owner);
    }
  };
  for (const { where, value } of exampleValues(doc)) walk(value, `${api} ${where}`);
  return found;
}

/**
 * The token the service's addresses carry, as the v2 examples show it: the
 * base64url of `{"sid":"…"}`, the first eight hex digits of the verification id.
 */
const serviceToken = (verificationId: string) =>
  Buffer.from(JSON.stringify({ sid: verificationId.slice(0, 8) })).toString('base64url');

/** True when the token is base64url that decodes to that shape for this id. */
function decodesAsServiceToken(token: string, verificationId: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return false;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.toString('base64url') !== token) return false;
  try {
    return isDeepStrictEqual(JSON.parse(bytes.toString('utf8')), { sid: verificationId.slice(0, 8) });
  } catch {
    return false;
  }
}

/** One token per verification; the service's tokens decode as the v2 ones do; a `url` names its own verification. */
export function urlTokenProblems(urls: UrlMention[]): string[] {
  const problems: string[] = [];
  for (const [id, seen] of groupBy(urls, (u) => u.verificationId)) {
    const tokens = groupBy(seen, (u) => u.token ?? '(no token)');
    if (tokens.size > 1)
      problems.push(
        `verification ${id} has ${tokens.size} url tokens: ${[...tokens].map(([token, at]) => `${token} (${at[0].where})`).join(', ')}; give it one token everywhere`,
      );
  }
  for (const u of urls) {
    if (u.ownerId && u.ownerId !== u.verificationId)
      problems.push(`${u.where}: the url of ${u.ownerId} points at verification ${u.verificationId}`);
    if (u.origin === LOCAL_SANDBOX) continue;
    if (u.token === undefined || !decodesAsServiceToken(u.token, u.verificationId))
      problems.push(
        `${u.where}: token ${u.token ?? '(none)'} of verification ${u.verificationId} does not decode as base64url to {"sid":"${u.verificationId.slice(0, 8)}"}; write token=${serviceToken(u.verificationId)}`,
      );
  }
  return problems;
}

/** The users `GET /users` and `GET /users/{userId}` show in their response examples. */
export function listedUsers(doc: Json): Seen<Json>[] {
  const found: Seen<Json>[] = [];
  for (const op of operationsOf(doc)) {
    if (op.method !== 'get' || !['/users', '/users/{userId}'].includes(op.key)) continue;
    for (const [status, response] of Object.entries<Json>(op.operation.responses ?? {})) {
      if (!status.startsWith('2')) continue;
      for (const media of Object.values<Json>(deref(doc, response).content ?? {})) {
        for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
          const value = deref(doc, example).value;
          const where = `GET ${op.key} ${status} ${name}`;
          const users: Json[] = Array.isArray(value?.users) ? value.users : [value];
          users.forEach((user, i) => {
            found.push({ where: value === user ? where : `${where} users/${i}`, value: user });
          });
        }
      }
    }
  }
  return found;
}

/** A user the list and the details both show is shown at one moment: one `updatedAt`, one set of external users. */
export function listingProblems(users: Seen<Json>[]): string[] {
  const problems: string[] = [];
  const state = (u: Json) => ({
    updatedAt: u.updatedAt,
    externalUsers: u.externalUsers.map((e: Json) => `${e.id} (${e.createdAt})`).sort(),
  });
  for (const [id, seen] of groupBy(users, (u) => u.value.id)) {
    const first = state(seen[0].value);
    for (const u of seen.slice(1)) {
      const other = state(u.value);
      if (!isDeepStrictEqual(other, first))
        problems.push(
          `user ${id}: updatedAt ${other.updatedAt} with external users [${other.externalUsers}] at ${u.where}, ${first.updatedAt} with [${first.externalUsers}] at ${seen[0].where}; show the user at one moment`,
        );
    }
  }
  return problems;
}

/**
 * `partnerUserId` identifies the created link ("the documentation says nothing
 * more about it", its schema says): an example never shows a service user's id there.
 */
export function partnerUserIdProblems(story: Story, samples: Sample[]): string[] {
  const userIds = new Set([
    ...story.users.map((u) => u.id),
    ...story.userMentions.map((m) => m.userId),
    ...story.verifications.flatMap((v) => [v.value.userId, v.value.previousUserId]).filter(Boolean),
    ...samples.filter((s) => s.schema === 'User' && typeof s.value.id === 'string').map((s) => s.value.id),
  ]);
  const links = [
    ...story.externalUserBatches.flatMap(({ where, value }) =>
      value.externalUsersWithSuccess.map((link: Json) => ({ where, link })),
    ),
    ...samples.filter((s) => typeof s.value.partnerUserId === 'string').map((s) => ({ where: s.where, link: s.value })),
  ];
  return links
    .filter(({ link }) => userIds.has(link.partnerUserId))
    .map(
      ({ where, link }) =>
        `${where}: partnerUserId ${link.partnerUserId} is a service user's id; the documents do not say it names the user, so give the link an id of its own`,
    );
}

/** A v2 session, by id, has one `expiresAt` in every example and in the samples assembled from the schemas. */
export function v2ExpiryProblems(sessions: Seen<Json>[]): string[] {
  const problems: string[] = [];
  const dated = sessions.filter((s) => typeof s.value.id === 'string' && typeof s.value.expiresAt === 'string');
  for (const [id, seen] of groupBy(dated, (s) => s.value.id)) {
    const values = groupBy(seen, (s) => s.value.expiresAt);
    if (values.size > 1)
      problems.push(
        `v2 session ${id} expires at ${[...values].map(([at, where]) => `${at} (${where[0].where})`).join(' and ')}; give it one expiresAt`,
      );
  }
  return problems;
}
