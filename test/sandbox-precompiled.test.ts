// The precompiled request validators (generated/validators/sandbox-contract.js,
// Ajv's standalone code built by scripts/validators.mjs) against Ajv compiling
// at run time: one for every schema a Contract compiles to parse a request,
// the same verdict and the same errors on the documents' request examples and
// on values broken in each usual way (so a Contract given them and no
// compiler, as in workerd, which refuses Ajv's, checks requests all the same).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documents, requestValidators } from '../generated/validators/sandbox-contract.js';
import { ajvCompiler } from '../src/contract/ajv-compiler.js';
import { Contract } from '../src/contract/routes.js';
import { resolveRef, valueAtPointer } from '../src/contract/json-pointer.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const APIS = ['v2', 'partner', 'sandbox'] as const;
type Api = (typeof APIS)[number];
/** A contract with the precompiled validators and no compiler, or compiling every schema with Ajv at run time. */
const contract = (api: Api, precompiled?: typeof requestValidators) =>
  new Contract(api, documents[api], {
    errorSchema: 'Error',
    security: () => 'none',
    ...(precompiled ? { precompiled } : { compiler: ajvCompiler(api, documents[api]) }),
  });

/** The examples a document gives for the value at a request schema pointer: the parameter's or media type's, and the schema's own. */
function examplesAt(doc: Record<string, any>, pointer: string): unknown[] {
  const holder = resolveRef(doc, valueAtPointer(doc, pointer.replace(/\/schema$/, '')));
  const schema = resolveRef(doc, holder?.schema);
  const named = Object.values<any>(holder?.examples ?? {}).map((e) => resolveRef(doc, e)?.value);
  return [
    ...('example' in (holder ?? {}) ? [holder.example] : []),
    ...named,
    ...(schema?.examples ?? []),
    ...('example' in (schema ?? {}) ? [schema.example] : []),
  ].filter((v) => v !== undefined);
}

/** The keywords the values above broke, over every API. */
const keywords = new Set<string>();

const BROKEN = [
  null,
  42,
  -1,
  1.5,
  'x',
  '',
  true,
  [],
  ['x'],
  {},
  { unexpected: 1 },
  'not-a-uuid',
  '2024-02-30T25:61:00Z',
  'NOT_A_VALUE',
];

/** A value broken in every usual way, two levels deep: an item or field of the wrong type, enum or format, a field missing, an extra field. */
function broken(value: unknown, depth = 2): unknown[] {
  if (depth === 0) return BROKEN;
  if (Array.isArray(value)) {
    return [
      ...BROKEN.flatMap((bad) => [[...value, bad], value.map(() => bad)]),
      ...(value.length ? broken(value[0], depth - 1).map((bad) => [bad, ...value.slice(1)]) : []),
    ];
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return [
      { ...obj, unexpected: 1 },
      ...Object.keys(obj).flatMap((key) => {
        const { [key]: _, ...without } = obj;
        return [without, ...broken(obj[key], depth - 1).map((bad) => ({ ...obj, [key]: bad }))];
      }),
    ];
  }
  return BROKEN;
}

describe('precompiled request validators', () => {
  it('the documents in the module are the bundles', () => {
    for (const api of APIS)
      expect(documents[api]).toEqual(
        JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', `${api}.json`), 'utf8')),
      );
  });

  it.each(APIS)('%s: one for exactly the schemas a Contract compiles to parse a request', (api) => {
    const pointers = contract(api).requestPointers();
    expect(pointers.length).toBeGreaterThan(0);
    const keys = Object.keys(requestValidators).filter((k) => k.startsWith(`${api}#`));
    expect(keys.sort()).toEqual(pointers.map((p) => `${api}${p}`).sort());
    // A schema with none compiled (an answer's) is refused with what to do.
    expect(() => contract(api, requestValidators).compile('#/components/schemas/Error')).toThrow(
      new RegExp(`no validator of ${api}#/components/schemas/Error was compiled with the package.*npm run build`),
    );
  });

  it.each(APIS)('%s: the same verdict and errors as Ajv compiling at run time', (api) => {
    const runtime = contract(api);
    let examples = 0;
    for (const pointer of runtime.requestPointers()) {
      const compiled = runtime.compile(pointer);
      const precompiled = requestValidators[`${api}${pointer}`];
      const given = examplesAt(documents[api], pointer);
      examples += given.length;
      for (const value of [...given, ...BROKEN, ...given.flatMap((example) => broken(example))]) {
        const verdict = precompiled(value);
        const errors = precompiled.errors;
        expect(compiled(value), `${pointer} on ${JSON.stringify(value)}`).toBe(verdict);
        expect(errors, `${pointer} on ${JSON.stringify(value)}`).toEqual(compiled.errors);
        for (const e of errors ?? []) keywords.add(e.keyword);
      }
    }
    expect(examples, 'no request example was found to start from').toBeGreaterThan(0);
  });

  it('the values broke each kind of rule the requests are held to', () => {
    // No request schema is closed (every additionalProperties is true or a
    // schema), so an extra field breaks none; it is sent all the same.
    expect([...keywords].sort()).toEqual(
      expect.arrayContaining([
        'enum',
        'format',
        'maxProperties',
        'minLength',
        'minimum',
        'pattern',
        'required',
        'type',
      ]),
    );
  });
});
