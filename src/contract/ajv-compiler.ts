// Ajv's compiler of a document's schemas, where code may be generated at run
// time (Node); apart, so the sandbox's fetch door never loads Ajv.
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
