// Generates what the package checks values with, from the bundled documents:
// - partner-webhooks.js: each webhook event's schema and those it refers to,
//   reduced to the keywords that judge a value (src/webhooks/schema-check.ts
//   interprets them). Data, not compiled validators: Ajv's standalone code for
//   the events is about 100 KB minified, this about 8 KB (W4). A keyword or
//   format the checks do not know fails the step, so no rule is skipped.
// - sandbox-contract.js: the v2, partner and sandbox documents, and Ajv's
//   standalone code for every request schema src/contract/routes.ts checks,
//   since workerd refuses code generated at run time (`new Function`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';
import { deref, words } from './lib/schema-view.mjs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import codegen from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { removeAllBut, replaceFile } from './lib/replace-file.mjs';
import { runIfMain } from './lib/step.mjs';

const SUBSCHEMA = 'boolean | WebhookSchema';
const typed = (/** @type {string} */ keywords, /** @type {string} */ type) =>
  Object.fromEntries(words(keywords).map((keyword) => [keyword, type]));
/** Keywords src/webhooks/schema-check.ts judges a value by, with their type in the declarations. */
const KEYWORD_TYPES = {
  $ref: 'string',
  type: 'string | string[]',
  const: 'unknown',
  enum: 'unknown[]',
  format: 'string',
  pattern: 'string',
  required: 'string[]',
  properties: `Record<string, ${SUBSCHEMA}>`,
  ...typed('additionalProperties items', SUBSCHEMA),
  ...typed('allOf anyOf oneOf', `(${SUBSCHEMA})[]`),
  ...typed('not if then else', SUBSCHEMA),
};
export const CHECKED_KEYWORDS = Object.keys(KEYWORD_TYPES);
/** Formats src/webhooks/formats.ts checks. */
export const CHECKED_FORMATS = ['date', 'date-time', 'uuid'];
// Keywords that only describe (or, like discriminator, only guide
// generators; each branch's const decides): dropped.
const ANNOTATIONS = new Set(
  words('description examples example title deprecated $comment discriminator readOnly writeOnly default externalDocs'),
);
const SCHEMA = new Set(['items', 'not', 'if', 'then', 'else', 'additionalProperties']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf']);
const PREFIX = '#/components/schemas/';

/**
 * The event type to schema name mapping of the WebhookEvent union, and every schema they need, reduced.
 * @returns {{ events: Record<string, string>, defs: Record<string, any> }}
 */
export function webhookSchemas(doc) {
  const { mapping } = doc.components.schemas.WebhookEvent.discriminator;
  const defs = {};
  const reduce = (schema, at) => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      throw new Error(`${at}: a webhook schema must be an object, not ${JSON.stringify(schema)}`);
    const out = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) continue;
      if (!CHECKED_KEYWORDS.includes(keyword)) {
        throw new Error(
          `${at} uses "${keyword}", which webhook payloads are not checked for: teach src/webhooks/schema-check.ts the keyword (and scripts/validators.mjs CHECKED_KEYWORDS), or express the rule with the ones it knows`,
        );
      }
      if (keyword === 'format' && !CHECKED_FORMATS.includes(value)) {
        throw new Error(
          `${at} uses format "${value}", which webhook payloads are not checked for: add it to src/webhooks/formats.ts and CHECKED_FORMATS`,
        );
      }
      if (keyword === '$ref') out.$ref = refName(value, at);
      else if (keyword === 'properties')
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, s]) => [name, reduce(s, `${at}/properties/${name}`)]),
        );
      else if (SCHEMA_LIST.has(keyword)) out[keyword] = value.map((s, i) => reduce(s, `${at}/${keyword}/${i}`));
      else if (SCHEMA.has(keyword) && typeof value !== 'boolean') out[keyword] = reduce(value, `${at}/${keyword}`);
      else out[keyword] = value;
    }
    // A one-value enum beside the equal const says it twice (for generators, P35).
    if (out.enum?.length === 1 && 'const' in out && JSON.stringify(out.enum[0]) === JSON.stringify(out.const))
      delete out.enum;
    return out;
  };
  const refName = (ref, at) => {
    if (!ref.startsWith(PREFIX))
      throw new Error(`${at}: only references to ${PREFIX}… are followed in webhook schemas, not ${ref}`);
    const name = ref.slice(PREFIX.length);
    if (!(name in defs)) {
      defs[name] = null; // taken, against cycles
      const target = doc.components.schemas[name];
      if (!target) throw new Error(`${at}: ${ref} does not exist`);
      defs[name] = reduce(target, ref);
    }
    return name;
  };
  const events = Object.fromEntries(
    Object.entries(mapping).map(([eventType, ref]) => [
      eventType,
      refName(ref, `the WebhookEvent mapping of ${eventType}`),
    ]),
  );
  return { events, defs };
}

const HEADER = `/**
 * Generated by scripts/validators.mjs from the bundled partner document: the
 * webhook schemas, reduced to the keywords that judge a value. Do not edit:
 * change openapi/ and run \`npm run build\`.
 */
`;

const DECLARATIONS = `${HEADER}
/** A webhook schema, reduced to the keywords that judge a value; \`$ref\` names another in \`defs\`; a subschema may be \`true\` or \`false\`. */
export interface WebhookSchema {
${Object.entries(KEYWORD_TYPES)
  .map(([keyword, type]) => `  ${keyword}?: ${type};`)
  .join('\n')}
}
/** The schema name of each event type, and every schema by name. */
export declare const webhookSchemas: {
  readonly events: Readonly<Record<string, string>>;
  readonly defs: Readonly<Record<string, WebhookSchema>>;
};
`;

const CONTRACT_APIS = ['v2', 'partner', 'sandbox'];
const escapePointerToken = (key) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The schema pointers src/contract/routes.ts (`Contract.route`) compiles to
 * parse a request: each path and query parameter's, then the JSON body's, in
 * route order, once each. test/sandbox-precompiled.test.ts holds the two equal.
 */
export function requestPointers(doc) {
  const pointers = new Set();
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const opPtr = `#/paths/${escapePointerToken(path)}/${method}`;
      [...(item.parameters ?? []), ...(op.parameters ?? [])].forEach((raw, i) => {
        const p = deref(doc, raw);
        if (p.in === 'path' || p.in === 'query')
          pointers.add(raw.$ref ? `${raw.$ref}/schema` : `${opPtr}/parameters/${i}/schema`);
      });
      if (deref(doc, op.requestBody)?.content?.['application/json']) {
        pointers.add(`${op.requestBody.$ref ?? `${opPtr}/requestBody`}/content/application~1json/schema`);
      }
    }
  }
  return [...pointers];
}

// Ajv's standalone code names what it needs from Ajv and ajv-formats with
// `require(...)` even in ESM mode; each becomes an import of that module
// (`m.default ?? m`: Node, and bundlers in Node mode, import a CommonJS
// module's module.exports; other bundlers its `default`).
const REQUIRE = /require\("([^"]+)"\)\.(\w+)/g;

/** The module of the documents and their request validators, and how many validators. */
export function sandboxContractModule(docs, homepage) {
  // The options of src/contract/routes.ts, so each function reports the same
  // errors; the formats are named by an identifier the module imports.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    code: { source: true, esm: true, formats: new codegen.Name('fullFormats') },
  });
  addFormats(ajv);
  for (const api of CONTRACT_APIS) ajv.addSchema(docs[api], api);
  const keys = CONTRACT_APIS.flatMap((api) => requestPointers(docs[api]).map((pointer) => `${api}${pointer}`));
  // Compiled as routes.ts compiles them (`{ $ref }`), which standaloneCode,
  // looking each export up by schema id, cannot do: it is handed a lookup of
  // these by short name, and writes them once with every function they share.
  const compiled = Object.fromEntries(keys.map((key, i) => [`r${i}`, ajv.compile({ $ref: key })]));
  const byName = { opts: ajv.opts, scope: ajv.scope, getSchema: (name) => compiled[name] };
  let code = standaloneCode(byName, Object.fromEntries(keys.map((_, i) => [`r${i}`, `r${i}`])));
  // The short names' exports give way to one map keyed by pointer.
  const exported = new Map();
  code = code.replace(/export const (r\d+) = (validate\d+);/g, (_, name, fn) => {
    exported.set(name, fn);
    return '';
  });
  // A change in the shape of Ajv's output would leave a route with no validator, silently.
  if (exported.size !== keys.length)
    throw new Error(`Ajv's standalone code exported ${exported.size} of the ${keys.length} request validators`);
  const imports = new Map();
  code = code.replace(REQUIRE, (_, spec, member) => {
    if (spec === 'ajv-formats/dist/formats')
      throw new Error('ajv-formats named its module itself; code.formats was not used');
    const id = `${spec.split('/').pop().replace(/\W/g, '_')}${member === 'default' ? '' : `_${member}`}`;
    imports.set(id, [spec, member]);
    return id;
  });
  if (/require\(/.test(code))
    throw new Error("Ajv's standalone code requires a module the sandbox contract does not import");
  const used = [...imports].sort();
  const head = [
    `import { fullFormats } from 'ajv-formats/dist/formats.js';`,
    ...used.map(([id, [spec]]) => `import ${id}_module from '${spec}.js';`),
    ...used.map(
      ([id, [, member]]) => `const ${id} = ${id}_module.${member}${member === 'default' ? ` ?? ${id}_module` : ''};`,
    ),
  ].join('\n');
  // Pure: a bundle that takes only the validators (the sandbox server, which reads the bundles' files) drops the documents.
  const literal = (value) => `/* @__PURE__ */ JSON.parse('${JSON.stringify(value).replace(/[\\']/g, '\\$&')}')`;
  const documents = `export const documents = {\n${CONTRACT_APIS.map((api) => `  ${api}: ${literal(docs[api])},`).join('\n')}\n};`;
  // Where the service's reference is hosted (`homepage` of package.json), which the sandbox's home page links.
  const reference = `export const homepage = ${JSON.stringify(homepage)};`;
  const map = `export const requestValidators = {\n${keys.map((key, i) => `  ${JSON.stringify(key)}: ${exported.get(`r${i}`)},`).join('\n')}\n};`;
  return {
    text: `${CONTRACT_HEADER}${head}\n${documents}\n${reference}\n${map}\n${code.replace(/^"use strict";\n*/, '')}\n`,
    count: keys.length,
  };
}

const CONTRACT_HEADER = `/**
 * Generated by scripts/validators.mjs from the bundled v2, partner and sandbox
 * documents: the documents, and Ajv's standalone validators of every request
 * schema src/contract/routes.ts checks, keyed \`\${api}\${pointer}\`. Do not
 * edit: change openapi/ and run \`npm run build\`.
 */
`;

const CONTRACT_DECLARATIONS = `${CONTRACT_HEADER}
import type { ValidateFunction } from 'ajv';
/** The bundled documents. */
export declare const documents: Record<'v2' | 'partner' | 'sandbox', Record<string, any>>;
/** A validator per request schema, keyed \`\${api}\${pointer}\` (\`partner#/paths/~1verifications/post/...\`). */
export declare const requestValidators: Record<string, ValidateFunction>;
/** Where the service's rendered reference is hosted. */
export declare const homepage: string;
`;

export async function validators(out) {
  const dir = path.join(out, 'validators');
  const read = async (api) => JSON.parse(await readFile(path.join(out, 'openapi', `${api}.json`), 'utf8'));
  const docs = Object.fromEntries(await Promise.all(CONTRACT_APIS.map(async (api) => [api, await read(api)])));
  const schemas = webhookSchemas(docs.partner);
  const { homepage } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  const contract = sandboxContractModule(docs, homepage);
  // Each file made before any replaces its old one: a failed step leaves them as they were.
  const files = {
    'partner-webhooks.js': `${HEADER}export const webhookSchemas = ${JSON.stringify(schemas)};\n`,
    'partner-webhooks.d.ts': DECLARATIONS,
    'sandbox-contract.js': contract.text,
    'sandbox-contract.d.ts': CONTRACT_DECLARATIONS,
  };
  for (const [name, text] of Object.entries(files)) await replaceFile(path.join(dir, name), text);
  await removeAllBut(dir, Object.keys(files));
  console.log(
    `validators: ${Object.keys(schemas.events).length} event types, ${Object.keys(schemas.defs).length} schemas; ${contract.count} request validators`,
  );
}

runIfMain(import.meta, validators);
