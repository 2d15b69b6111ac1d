// What the runner knows of each operation, read from the bundled document:
// parameters, body, documented statuses and their response schemas. The Ajv
// instance and the request parser (the oracle of which requests are valid)
// are the sandbox's, so the runner and the sandbox read the contract alike.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { readBundledDocument } from '../package-files.js';
import { Contract, type RouteParam, type RouteSpec } from '../contract/routes.js';
import { ajvCompiler } from '../contract/ajv-compiler.js';
import { resolveRef } from '../contract/json-pointer.js';
import { markedRows } from './assumptions.js';
import type { Json } from '../contract/json.js';

export type ApiName = 'partner' | 'v2';

export type { RouteParam as ParamModel } from '../contract/routes.js';

export interface OperationModel {
  api: ApiName;
  operationId: string;
  method: string;
  path: string;
  /** GET: safe to call against a real service. */
  readOnly: boolean;
  params: RouteParam[];
  bodySchema: Json | undefined;
  /** Documented statuses. */
  statuses: number[];
  /** The sandbox's parser of this operation: says whether a request is valid, and which rule it breaks. */
  route: RouteSpec;
  /** The validator of the documented body of a status (undefined: no JSON body documented). */
  responseValidator(status: number): ValidateFunction | undefined;
  /** A JSON pointer into the document to the response schema of a status. */
  responseSchemaPointer(status: number): string | undefined;
  /** The assumption rows the response of a status is marked with (`Assumed ([P3](…))`): that status is assumed. */
  responseAssumptions(status: number): string[];
}

export interface ApiModel {
  api: ApiName;
  doc: Json;
  operations: OperationModel[];
  /** How the credential is sent. */
  scheme: 'authKey' | 'bearer';
}

/** The operations of one bundled API, in document order. */
export function loadApi(api: ApiName): ApiModel {
  const doc = readBundledDocument(api);
  const scheme = api === 'partner' ? 'authKey' : 'bearer';
  const contract = new Contract(api, doc, {
    errorSchema: 'Error',
    security: () => scheme,
    compiler: ajvCompiler(api, doc, { verbose: true }),
  });
  const operations = contract.routes.map((route): OperationModel => {
    const op = resolveRef(doc, doc.paths[route.path])[route.method.toLowerCase()];
    return {
      api,
      operationId: route.operationId,
      method: route.method,
      path: route.path,
      readOnly: route.method === 'GET',
      params: route.params,
      bodySchema: route.bodySchema,
      statuses: route.statuses,
      route,
      responseSchemaPointer: route.responsePointer,
      responseAssumptions: (status) => markedRows(resolveRef(doc, op.responses?.[status])?.description),
      responseValidator: route.responseValidator,
    };
  });
  return { api, doc, operations, scheme };
}
