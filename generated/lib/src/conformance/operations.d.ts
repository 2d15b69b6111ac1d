import type { ValidateFunction } from 'ajv/dist/2020.js';
import { type RouteSpec } from '../sandbox/contract.js';
import { type Json } from './schema-values.js';
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
}
export interface ApiModel {
    api: ApiName;
    doc: Json;
    operations: OperationModel[];
    /** How the credential is sent. */
    scheme: 'authKey' | 'bearer';
}
/** The operations of one bundled API, in document order. */
export declare function loadApi(api: ApiName): ApiModel;
