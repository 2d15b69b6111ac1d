// The field walk of the webhooks (rule 2 of the strictness policy: what the service sends is held only to what the
// documents state): every field of a full example of each documented webhook is removed, and separately set to null,
// and parseWebhookEvent must take the result, unless the partner document states the field is sent (or states its type,
// for null): then it must refuse it. A refusal answers non-200, which the service retries every 15 minutes, forever.
import { describe, expect, it } from 'vitest';
import { webhookSchemas } from '../generated/validators/partner-webhooks.js';
import type { WebhookSchema } from '../generated/validators/partner-webhooks.js';
import { schemaIssues } from '../src/webhooks/schema-check.js';
import { parseWebhookEvent, signWebhookPayload } from '../src/webhooks/index.js';
import { deref, loadBundle, type Json } from './helpers/openapi.js';

const KEY = 'field-walk-key';
const USER_ID = '4b8e2d6f-7a1c-4f93-a5d0-c2e9b7f1a364';

/**
 * The fields the partner document (or a marked assumption of it) says are sent, by their place in the event (`*` an
 * array index), with the line that says so and whether `null` is its documented value. Every other field may be absent
 * or null.
 */
function stated(event: Json, at: string[]): { line: string; nullable?: boolean } | undefined {
  const path = `/${at.map((t) => (/^\d+$/.test(t) ? '*' : t)).join('/')}`;
  const { dataType } = event;
  const data = event.data ?? {};
  const parent = at.slice(0, -1).reduce((node: Json, token) => node?.[token], event);
  switch (path) {
    case '/eventId':
    case '/dataType':
    case '/eventType':
    case '/createdAt':
    case '/data':
      return { line: 'Envelope: `eventId`, `dataType`, `eventType`, `createdAt`, `data`' };
    case '/data/verificationId':
    case '/data/status':
      return dataType === 'verification' ? { line: 'assumed sent (P8): the verification and its status' } : undefined;
    case '/data/userId':
      if (dataType !== 'verification') return { line: 'assumed sent (P8): the user the webhook is about' };
      return data.status === 'completed' ? { line: '`completed` carries `userId`' } : undefined;
    case '/data/previousUserId':
      return data.status === 'reverted'
        ? {
            line: '`previousUserId` (only when reverted); null after a revert from waitingForUserInput (P9)',
            nullable: true,
          }
        : undefined;
    case '/data/isShareholder':
      return { line: '`isShareholder` (boolean, always true)' };
    case '/data/requirements/*/type':
      return { line: '`requirements` | array of `{type}`' };
    case '/data/collectedRequirements/*/type':
      return { line: '`collectedRequirements` entries: `type`' };
    case '/data/collectedRequirements/*/result':
      return { line: '`result` (object or null; null until collected)', nullable: true };
    case '/data/collectedRequirements/*/verified':
      return parent?.type === 'phoneNumbers' ? undefined : { line: '`verified` (boolean; absent for `phoneNumbers`)' };
    default:
      return undefined;
  }
}

/** Every object member of a value, as its path of tokens; array entries are entered, not changed. */
function fieldPaths(value: Json, at: string[] = []): string[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => fieldPaths(item, [...at, String(i)]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, child]) => [[...at, name], ...fieldPaths(child, [...at, name])]);
}

function changed(event: Json, at: string[], change: 'absent' | 'null'): Json {
  const copy = structuredClone(event);
  const parent = at.slice(0, -1).reduce((node: Json, token) => node[token], copy);
  if (change === 'absent') delete parent[at.at(-1)!];
  else parent[at.at(-1)!] = null;
  return copy;
}

/**
 * The walk: for each field of each event, absent and null, whether `accepts`
 * judges as the document does. Returns what it judges otherwise, one line each.
 */
function walk(events: Json[], accepts: (event: Json) => boolean): { problems: string[]; visited: Set<string> } {
  const problems: string[] = [];
  const visited = new Set<string>();
  for (const event of events) {
    expect(accepts(event), `${event.eventType} as documented`).toBe(true);
    for (const at of fieldPaths(event)) {
      visited.add(at.at(-1)!);
      const rule = stated(event, at);
      const where = `${event.eventType} ${event.data?.status ?? ''} /${at.join('/')}`;
      for (const change of ['absent', 'null'] as const) {
        const mustAccept = !rule || (change === 'null' && rule.nullable === true);
        if (accepts(changed(event, at, change)) !== mustAccept)
          problems.push(
            `${where} ${change}: ${mustAccept ? 'refused' : `accepted, though documented (${rule!.line})`}`,
          );
      }
    }
  }
  return { problems, visited };
}

const partner = loadBundle('partner');

/** Every example of every documented webhook, a reverted verification and the deprecated fields included. */
function fullEvents(): Json[] {
  const events = Object.values<Json>(partner.webhooks).flatMap((item) =>
    Object.values<Json>(deref(partner, item).post.requestBody.content['application/json'].examples).map((example) =>
      structuredClone(deref(partner, example).value),
    ),
  );
  const updated = events.find((e) => e.eventType === 'verification.updated')!;
  const deprecated = { phoneNumber: '+4915112345678', isPhoneNumberVerified: true, requireFirstAndLastName: true };
  const completed = { ...updated, data: { ...updated.data, ...deprecated } };
  const reverted = { ...updated, data: { ...updated.data, status: 'reverted', userId: null, previousUserId: USER_ID } };
  return [...events, completed, reverted];
}

const parses = (event: Json) => {
  const body = JSON.stringify(event);
  try {
    parseWebhookEvent(body, signWebhookPayload(body, KEY), KEY);
    return true;
  } catch {
    return false;
  }
};

/** Every property name the webhook schemas declare (what the examples must hold for the walk to reach it). */
function declaredNames(): Set<string> {
  const names = new Set<string>();
  const visit = (schema: WebhookSchema | boolean | undefined) => {
    if (typeof schema !== 'object') return;
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      // A field declared only to be absent (`verified` of a phone number entry) has nothing to walk.
      if (typeof child === 'object' && child.not !== undefined && Object.keys(child).length === 1) continue;
      names.add(name);
      visit(child);
    }
    for (const list of [schema.allOf, schema.anyOf, schema.oneOf]) for (const s of list ?? []) visit(s);
    visit(schema.items);
  };
  for (const schema of Object.values(webhookSchemas.defs)) visit(schema);
  return names;
}

describe('the field walk: parseWebhookEvent takes every webhook with any field the documents do not state left out or null', () => {
  const events = fullEvents();
  const { problems, visited } = walk(events, parses);

  it('accepts each field the documents do not state is sent absent or null, and refuses each stated one left out', () => {
    expect(problems).toEqual([]);
  });

  it('reaches every field the webhook schemas declare, every webhook of the document included', () => {
    expect(new Set(events.map((e) => e.eventType))).toEqual(new Set(Object.keys(partner.webhooks)));
    const unreached = [...declaredNames()].filter((name) => !visited.has(name));
    expect(unreached).toEqual([]);
  });

  it('fails where a schema requires a field the documents leave open, or leaves open one they state (self-check)', () => {
    // The walk run against the same schemas with one relaxation undone and one stated field opened.
    const defs = structuredClone(webhookSchemas.defs) as Record<string, WebhookSchema>;
    defs.VerificationEventData.required = ['status', 'updatedAt'];
    const strayed = (event: Json) => {
      const schema = defs[webhookSchemas.events[event.eventType]];
      return schema !== undefined && schemaIssues(event, schema, defs).length === 0;
    };
    const found = walk(events, strayed).problems;
    expect(found).toContain('verification.created created /data/updatedAt absent: refused');
    expect(found).toContainEqual(
      expect.stringMatching(
        /^verification\.updated completed \/data\/verificationId absent: accepted, though documented/,
      ),
    );
  });
});
