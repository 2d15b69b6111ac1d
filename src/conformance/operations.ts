// What the runner knows of each operation, read from the bundled document:
// parameters, body, documented statuses and their response schemas. The Ajv
// instance and the request parser (the oracle of which requests are valid)
// are the sandbox's, so the runner and the sandbox read the contract alike.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { readBundledDocument } from '../package-files.js';
import { Contract, type RouteSpec } from '../contract/routes.js';
import { ajvCompiler } from '../contract/ajv-compiler.js';
import { escapePointerToken, resolveRef } from '../contract/json-pointer.js';
import { markedRows } from './assumptions.js';
import type { Json } from '../contract/json.js';
import { mergeAllOf, typesOf } from './schema-values.js';

export type ApiName = 'partner' | 'v2';

export interface ParamModel {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  array: boolean;
  /** Arrays only: repeated (`a=1&a=2`) when true, comma-separated when false. */
  explode: boolean;
  schema: Json;
}

export interface OperationModel {
  api: ApiName;
  operationId: string;
  method: string;
  path: string;
  /** GET: safe to call against a real service. */
  readOnly: boolean;
  params: ParamModel[];
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
  const operations: OperationModel[] = [];
  for (const route of contract.routes) {
    const item = resolveRef(doc, doc.paths[route.path]);
    const method = route.method.toLowerCase();
    const op = item[method];
    const opPtr = `#/paths/${escapePointerToken(route.path)}/${method}`;
    const params: ParamModel[] = [...(item.parameters ?? []), ...(op.parameters ?? [])]
      .map((raw: Json) => resolveRef(doc, raw))
      .filter((p: Json) => p.in === 'path' || p.in === 'query')
      .map((p: Json) => {
        const schema = mergeAllOf(doc, p.schema);
        return {
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          array: typesOf(schema).includes('array'),
          explode: p.explode ?? (p.style ?? 'form') === 'form',
          schema,
        };
      });
    const pointers = new Map<number, string>();
    for (const [status, raw] of Object.entries<Json>(op.responses ?? {})) {
      if (!/^\d{3}$/.test(status) || !resolveRef(doc, raw)?.content?.['application/json']) continue;
      pointers.set(Number(status), `${raw.$ref ?? `${opPtr}/responses/${status}`}/content/application~1json/schema`);
    }
    const validators = new Map<number, ValidateFunction>();
    operations.push({
      api,
      operationId: op.operationId,
      method: route.method,
      path: route.path,
      readOnly: route.method === 'GET',
      params,
      bodySchema: resolveRef(doc, op.requestBody)?.content?.['application/json']?.schema,
      statuses: Object.keys(op.responses ?? {})
        .filter((s) => /^\d{3}$/.test(s))
        .map(Number),
      route,
      responseSchemaPointer: (status) => pointers.get(status),
      responseAssumptions: (status) => markedRows(resolveRef(doc, op.responses?.[status])?.description),
      responseValidator: (status) => {
        const pointer = pointers.get(status);
        if (pointer && !validators.has(status)) validators.set(status, contract.compile(pointer));
        return validators.get(status);
      },
    });
  }
  return { api, doc, operations, scheme };
}
