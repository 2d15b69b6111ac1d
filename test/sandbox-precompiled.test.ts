// The precompiled request validators, for a Contract with no compiler (workerd
// refuses Ajv's): one for each schema it parses a request with, from the bundles.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documents, requestValidators } from '../generated/validators/sandbox-contract.js';
import { ajvCompiler } from '../src/contract/ajv-compiler.js';
import { Contract } from '../src/contract/routes.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const APIS = ['v2', 'partner', 'sandbox'] as const;
type Api = (typeof APIS)[number];
/** A contract with the precompiled validators and no compiler, or compiling every schema with Ajv at run time. */
const contract = (api: Api, precompiled?: typeof requestValidators) =>
  new Contract(api, documents[api], {
    ...(precompiled ? { precompiled } : { compiler: ajvCompiler(api, documents[api]) }),
  });

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
    expect(() => contract(api, requestValidators).checkError({})).toThrow(
      new RegExp(`no validator of ${api}#/components/schemas/Error was compiled with the package.*npm run build`),
    );
  });
});
