// What the runner knows of each operation, read from the bundled document; the
// request parser is the sandbox's, so both read the contract alike.
import { readBundledDocument } from '../package-files.js';
import { Contract, type RouteSpec } from '../contract/routes.js';
import { ajvCompiler } from '../contract/ajv-compiler.js';
import { resolveRef } from '../contract/json-pointer.js';
import { markedRows } from './assumptions.js';
import type { Json } from '../contract/json.js';

export type ApiName = 'partner' | 'v2';

/** An operation as the runner calls it: its route (the sandbox's parser and validators), and what the runner adds. */
export interface OperationModel extends Omit<RouteSpec, 'api'> {
  api: ApiName;
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
  const contract = new Contract(api, doc, { compiler: ajvCompiler(api, doc, { verbose: true }) });
  const operations = contract.routes.map((route): OperationModel => {
    const op = resolveRef(doc, doc.paths[route.path])[route.method.toLowerCase()];
    return {
      ...route,
      api,
      responseAssumptions: (status) => markedRows(resolveRef(doc, op.responses?.[status])?.description),
    };
  });
  return { api, doc, operations, scheme };
}
