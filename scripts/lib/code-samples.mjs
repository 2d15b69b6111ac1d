// What an operation's examples in a bundled document give: its code samples
// (the credential header from the security scheme, the serialization from
// each parameter's style, the values from the examples) and its Try it form.
// A sample sends every path and required query parameter, every array-valued
// query filter (to show its serialization) and the body's first example;
// optional scalar filters and paging are left out: it shows the call.
import { deref } from './schema-view.mjs';

/**
 * How each API is called from a shell and from TypeScript (the client
 * `factory` of the package's entry point named after the API); every API of
 * the package needs an entry.
 */
const SAMPLE_CLIENTS = {
  v2: {
    urlVar: 'V2_URL',
    credentialVar: 'ACCESS_TOKEN',
    typescript: { factory: 'createV2Client', credentialOption: 'accessToken' },
  },
  partner: {
    urlVar: 'PARTNER_URL',
    credentialVar: 'AUTH_KEY',
    // The service's "Headers on every call": the key and `Content-Type: application/json`, GETs included (S19).
    jsonContentTypeOnEveryCall: true,
    typescript: { factory: 'createPartnerClient', credentialOption: 'authKey' },
  },
  // The control API has no client in the package: curl only.
  sandbox: { urlVar: 'SANDBOX_URL', credentialVar: null, typescript: null },
};

/** Every operation of the document: method, path, operationId. */
export function operationsOf(doc) {
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  return Object.entries(doc.paths ?? {}).flatMap(([route, item]) =>
    methods
      .filter((method) => item[method]?.operationId)
      .map((method) => ({ method, path: route, operationId: item[method].operationId })),
  );
}

/** The example a parameter or media type gives: `example`, else its first `examples` entry, else its schema's. */
function exampleOf(doc, holder) {
  if (holder === undefined) return undefined;
  if ('example' in holder) return holder.example;
  const first = Object.values(holder.examples ?? {})[0];
  if (first !== undefined) return deref(doc, first).value;
  const schema = deref(doc, holder.schema);
  return schema?.examples?.[0] ?? schema?.example;
}

/** `name=value` pairs of a query parameter as OpenAPI's form style writes them (comma-separated unless exploded). */
function queryPairs(parameter, value) {
  if (!Array.isArray(value)) return [[parameter.name, String(value)]];
  const exploded = parameter.explode ?? (parameter.style ?? 'form') === 'form';
  return exploded ? value.map((item) => [parameter.name, String(item)]) : [[parameter.name, value.join(',')]];
}

/** An operation, its parameters (its path's first), resolved, and the security scheme it asks for first. */
function operationParts(doc, path, method) {
  const item = doc.paths[path];
  const operation = item[method];
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(doc, p));
  const [name] = Object.keys((operation.security ?? doc.security ?? [])[0] ?? {});
  return { operation, parameters, scheme: name && deref(doc, doc.components.securitySchemes[name]) };
}

/** The header a security scheme asks for: `X-Auth-Key` (an API key) or a bearer token. */
function credentialOf(scheme) {
  if (scheme?.type === 'apiKey' && scheme.in === 'header') return { header: scheme.name, kind: 'authKey' };
  if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')
    return { header: 'Authorization', kind: 'accessToken' };
  return undefined;
}

/**
 * The values a sample sends, taken from the document.
 * @returns {{ operationId: string, method: string, path: string, pathParams: Record<string, any>,
 *   query: { name: string, value: any, explode: boolean }[], body: any, scheme: any, jsonContentType: boolean }}
 */
export function sampleRequest(doc, path, method) {
  const { operation, parameters, scheme } = operationParts(doc, path, method);
  const where = `${method.toUpperCase()} ${path}`;
  const example = (holder, what = `parameter "${holder.name}"`) => {
    const value = exampleOf(doc, holder);
    if (value === undefined)
      throw new Error(`${where}: ${what} has no example to build the code samples from; add one`);
    return value;
  };
  const pathParams = {};
  const query = [];
  for (const p of parameters) {
    if (p.in === 'path') pathParams[p.name] = example(p);
    else if (p.in === 'query' && (p.required || deref(doc, p.schema)?.type === 'array'))
      query.push({ name: p.name, value: example(p), explode: p.explode ?? (p.style ?? 'form') === 'form' });
  }
  const requestBody = operation.requestBody && deref(doc, operation.requestBody);
  const body = requestBody && example(requestBody.content?.['application/json'], 'the request body');
  // An operation that documents 415 for a missing media type wants
  // `Content-Type: application/json` even when it takes no body (the sandbox's
  // control POSTs, S16).
  const jsonContentType = body !== undefined || (method !== 'get' && operation.responses?.['415'] !== undefined);
  return { operationId: operation.operationId, method, path, pathParams, query, body, scheme, jsonContentType };
}

const shellQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

function queryString(query) {
  // Encoded value by value: the commas that join an unexploded list stay commas.
  const pairs = query
    .flatMap((q) => queryPairs(q, q.value))
    .map(([name, value]) => `${name}=${value.split(',').map(encodeURIComponent).join(',')}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

const fillPath = (path, values) => path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(values[name]));

function curlSample(request, client) {
  const url = `"$${client.urlVar}${fillPath(request.path, request.pathParams)}${queryString(request.query)}"`;
  const lines = [`curl ${request.method === 'get' ? '' : `-X ${request.method.toUpperCase()} `}${url}`];
  const credential = credentialOf(request.scheme);
  const bearer = credential?.kind === 'accessToken' ? 'Bearer ' : '';
  if (credential) lines.push(`-H "${credential.header}: ${bearer}$${client.credentialVar}"`);
  else if (request.scheme)
    throw new Error(`${request.operationId}: no curl sample for security scheme ${JSON.stringify(request.scheme)}`);
  if (request.jsonContentType || client.jsonContentTypeOnEveryCall) lines.push(`-H 'Content-Type: application/json'`);
  if (request.body !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(request.body, null, 2))}`);
  return lines.join(' \\\n  ');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as a TypeScript literal: JSON, with plain keys unquoted and single-quoted strings. */
function tsLiteral(value, indent = '') {
  if (value && typeof value === 'object') {
    const inner = `${indent}  `;
    const list = Array.isArray(value);
    const key = (k) => (IDENTIFIER.test(k) ? k : `'${k.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
    const entries = list ? value.map((v) => ['', v]) : Object.entries(value).map(([k, v]) => [`${key(k)}: `, v]);
    if (entries.length === 0) return list ? '[]' : '{}';
    const [open, close] = list ? ['[', ']'] : ['{ ', ' }'];
    const flat = `${open}${entries.map(([k, v]) => `${k}${tsLiteral(v, indent)}`).join(', ')}${close}`;
    if (!flat.includes('\n') && flat.length <= 60) return flat;
    const lines = entries.map(([k, v]) => `${inner}${k}${tsLiteral(v, inner)},`);
    return `${open.trim()}\n${lines.join('\n')}\n${indent}${close.trim()}`;
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  return JSON.stringify(value);
}

function typescriptSample(request, client, api) {
  const ts = client.typescript;
  const params = {};
  if (Object.keys(request.pathParams).length) params.path = request.pathParams;
  if (request.query.length) params.query = Object.fromEntries(request.query.map((q) => [q.name, q.value]));
  const init = {};
  if (Object.keys(params).length) init.params = params;
  if (request.body !== undefined) init.body = request.body;
  const args = [`'${request.path}'`, ...(Object.keys(init).length ? [tsLiteral(init)] : [])].join(', ');
  return [
    `import { ${ts.factory} } from '@verification-service/contracts/${api}';`,
    '',
    `const ${api} = ${ts.factory}({`,
    `  baseUrl: process.env.${client.urlVar}!,`,
    `  ${ts.credentialOption}: process.env.${client.credentialVar}!,`,
    '});',
    '',
    `const { data, error, response } = await ${api}.${request.method.toUpperCase()}(${args});`,
    'if (error) throw new Error(`${response.status}: ${JSON.stringify(error)}`);',
    'console.log(response.status, data);',
  ].join('\n');
}

/**
 * The samples of every operation of one API's bundled document, in document
 * order: `[{ operationId, method, path, samples: [{ lang, label, source }] }]`,
 * the shape of Redoc's `x-codeSamples`.
 */
export function codeSamples(apiName, doc) {
  const client = SAMPLE_CLIENTS[apiName];
  if (!client)
    throw new Error(
      `no code-sample settings for API "${apiName}"; add it to SAMPLE_CLIENTS in scripts/lib/code-samples.mjs`,
    );
  return operationsOf(doc).map(({ method, path, operationId }) => {
    const request = sampleRequest(doc, path, method);
    const samples = [{ lang: 'curl', label: 'curl', source: curlSample(request, client) }];
    if (client.typescript)
      samples.push({ lang: 'TypeScript', label: 'TypeScript', source: typescriptSample(request, client, apiName) });
    return { operationId, method, path, samples };
  });
}

/**
 * The Try it form of one operation as it opens: `query` holds the examples of
 * the required query parameters only, so a list opens unfiltered and shows
 * what the page's sandbox holds; `example` is the whole example query, as the
 * reference shows it, offered as a hint (its filters name the reference's
 * example records, which the page's sandbox does not hold).
 */
export function tryItForm(doc, operationId) {
  const found = operationsOf(doc).find((o) => o.operationId === operationId);
  if (!found) throw new Error(`the document has no operation ${operationId}`);
  const { operation, parameters, scheme } = operationParts(doc, found.path, found.method);
  const query = parameters.filter((p) => p.in === 'query' && exampleOf(doc, p) !== undefined);
  const pairsOf = (list) =>
    new URLSearchParams(list.flatMap((p) => queryPairs(p, exampleOf(doc, p)))).toString().replace(/%2C/g, ',');
  const media = deref(doc, operation.requestBody)?.content?.['application/json'];
  return {
    method: found.method.toUpperCase(),
    path: found.path,
    operationId,
    summary: operation.summary ?? operationId,
    pathParameters: parameters
      .filter((p) => p.in === 'path')
      .map((p) => ({ name: p.name, example: String(exampleOf(doc, p) ?? '') })),
    query: pairsOf(query.filter((p) => p.required)),
    example: pairsOf(query),
    // An operation whose body is optional still opens with its example (`{}` when it has none).
    body: media === undefined ? undefined : JSON.stringify(exampleOf(doc, media) ?? {}, null, 2),
    credential: credentialOf(scheme),
  };
}
