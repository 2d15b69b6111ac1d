// Ajv's compiler of a document's schemas, for the contracts that may generate
// code at run time (Node: the sandbox server, the conformance runner). A
// contract without it checks requests with the validators compiled when the
// package was built, which keeps Ajv out of the sandbox's fetch door.
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Json } from './json.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Compiles `{ $ref: "<api><pointer>" }` against the document, which Ajv is given on the first compile. */
export type SchemaCompiler = (ref: string) => ValidateFunction;

/** `verbose` (the conformance runner): each error carries the schema holding the failed keyword. */
export function ajvCompiler(api: string, doc: Json, options: Pick<Options, 'verbose'> = {}): SchemaCompiler {
  let ajv: Ajv2020 | undefined;
  return (ref) => {
    if (!ajv) {
      // The bundles are linted against the OpenAPI schema dialect at build time;
      // checking them again here would compile Ajv's meta-schema at every start.
      // scripts/validators.mjs precompiles with these same options.
      ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, ...options });
      addFormats(ajv);
      ajv.addSchema(doc, api);
    }
    return ajv.compile({ $ref: ref });
  };
}
