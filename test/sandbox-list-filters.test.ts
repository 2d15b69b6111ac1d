// Every query parameter the partner and v2 documents give a list is read
// by the local sandbox's handler of that list. The route's parse accepts
// any documented parameter, so a filter added to a document and to no
// handler would be accepted and silently ignored, answering the whole
// list: here each list is called with every parameter it documents (its
// documented example as the value), and the parameters its handler never
// looked at are named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../generated/validators/sandbox-contract.js';
import { deref, type Json, operationsOf } from './helpers/openapi.js';
import { askCore, wrappedCore } from './helpers/wrapped-core.js';

// The query names each operation's handler read, by `METHOD /path` as documented.
const read = new Map<string, Set<string>>();
const core = wrappedCore((route, handle) => ({
  route,
  // The handler gets a query that notes each name it reads.
  handle: (req) => {
    const key = `${route.method.toUpperCase()} ${route.path}`;
    const names = read.get(key) ?? new Set<string>();
    read.set(key, names);
    const query = new Proxy(req.query, {
      get: (target, name, receiver) => {
        if (typeof name === 'string') names.add(name);
        return Reflect.get(target, name, receiver);
      },
    });
    return handle({ ...req, query });
  },
}));
afterAll(() => core.delivery.close());

async function call(method: string, target: string): Promise<{ status: number; body: Json }> {
  const answer = await askCore(core, method, target);
  return { status: answer?.status ?? 0, body: JSON.parse(answer?.body || 'null') };
}

/** `name=value` as the parameter's style writes its documented example (`form`: repeated when exploded, else comma-separated). */
function queryPart(parameter: Json): string {
  const value = parameter.example;
  const values = Array.isArray(value) ? value.map(String) : [String(value)];
  const pair = (v: string) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(v)}`;
  return Array.isArray(value) && parameter.explode === false ? pair(values.join(',')) : values.map(pair).join('&');
}

const lists = (['partner', 'v2'] as const).flatMap((api) => {
  const doc = documents[api];
  return operationsOf(doc).flatMap(({ kind, key, method, operation }) => {
    if (kind !== 'path') return [];
    const item = deref(doc, doc.paths[key]);
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => deref(doc, p));
    const query = parameters.filter((p: Json) => p.in === 'query');
    return query.length ? [{ api, operation: `${method.toUpperCase()} ${key}`, key, query }] : [];
  });
});
// One case per parameter, sent alone: a handler's filters are checked in turn and stop at the
// first that turns a record away, so a parameter sent beside others might go unread by chance.
const cases = lists.flatMap((list) =>
  list.query.map((parameter: Json) => [`${list.api} ${list.operation} ?${parameter.name}`, list, parameter] as const),
);

// Records for the paths' ids to name, and for every filter to be asked of: a user and its verifications.
let ids: Record<string, string> = {};
beforeAll(async () => {
  const seeded = await call('POST', '/_sandbox/seed');
  expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
  ids = { verificationId: seeded.body.verificationIds[0], userId: seeded.body.userIds[0] };
});

describe('the local sandbox reads every documented query parameter of a partner or v2 list', () => {
  it('finds lists with query parameters in both documents', () => {
    expect(new Set(lists.map((l) => l.api))).toEqual(new Set(['partner', 'v2']));
  });

  it.each(cases)('%s', async (_, list, parameter) => {
    const target = `${list.key.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? name)}?${queryPart(parameter)}`;
    read.delete(list.operation);
    const answer = await call('GET', target);
    expect(answer.status, `GET ${target}: ${JSON.stringify(answer.body)}`).toBe(200);
    expect(
      read.get(list.operation)?.has(parameter.name),
      `${list.api} ${list.operation}: the documents give it \`${parameter.name}\`, which its handler in src/sandbox/ never reads; the local sandbox would accept and ignore it, answering the whole list`,
    ).toBe(true);
  });
});
