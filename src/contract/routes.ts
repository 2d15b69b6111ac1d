// Turns a bundled OpenAPI document into route specifications. Each validator
// is compiled on its route's first use, so a start compiles nothing (S22), or
// taken precompiled (scripts/validators.mjs) where code may not be generated
// at run time (workerd).
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { SchemaCompiler } from './ajv-compiler.js';
import { bodyLimitViolations } from './body-limits.js';
import { commaJoinedViolation, queryFormViolations } from './query-strictness.js';
import { escapePointerToken, resolveRef } from './json-pointer.js';
import type { Json } from './json.js';

/** One offending input: where it is, which rule it broke, the rule's parameters; every check of a request reports so. */
export interface Violation {
  field: string;
  reasonCode: string;
  params: Record<string, unknown>;
}

export interface ParsedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

type RawRequest = { params: Record<string, string>; query: URLSearchParams; body: unknown };

export interface RouteSpec {
  api: string;
  operationId: string;
  method: string;
  /** The path as documented, `/verifications/{verificationId}`. */
  path: string;
  security: 'bearer' | 'authKey' | 'none';
  hasBody: boolean;
  /** The documented JSON body's schema as written (often a `$ref` into the document); undefined when the operation takes none. */
  bodySchema?: unknown;
  /** Parses and checks path, query and body; returns the typed values or the violations. */
  parse(raw: RawRequest): { ok: true; value: ParsedRequest } | { ok: false; violations: Violation[] };
  /** Violations of the response schema declared for the status (none when valid). */
  checkResponse(status: number, body: unknown): string[];
  /** The path and query parameters, in document order. */
  params: RouteParam[];
  statuses: number[];
  /** A JSON pointer into the document to the JSON response schema of a status; undefined when none is documented. */
  responseSchemaPointer(status: number): string | undefined;
  /** The validator of the documented JSON body of a status, compiled on first use; undefined when none is documented. */
  responseValidator(status: number): ValidateFunction | undefined;
}

export interface RouteParam {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  array: boolean;
  /** Arrays only: repeated (`a=1&a=2`) when true, comma-separated when false. */
  explode: boolean;
  /** The schema, its `$ref` followed. */
  schema: Json;
  itemType: string | undefined;
  validator: () => ValidateFunction;
}

function violationsOf(errors: ErrorObject[] | null | undefined, field: string): Violation[] {
  return (errors ?? []).map((e) => ({
    // A missing property is reported on its parent; name the property itself.
    field: `${field}${e.instancePath.replace(/\//g, '.')}${e.keyword === 'required' ? `.${e.params.missingProperty}` : ''}`,
    // Upper-case like the service's `REQUIRED`: `maxLength` is `MAX_LENGTH`.
    reasonCode: e.keyword.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase(),
    params: { ...e.params, message: e.message },
  }));
}

// Query strings carry text; a parameter's schema says what it becomes.
function coerce(text: string, type: string | undefined): unknown {
  if (type === 'integer' || type === 'number')
    return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** How a document's security scheme types send the credential; an operation without one is open. */
const CREDENTIALS: Record<string, RouteSpec['security']> = { apiKey: 'authKey', http: 'bearer' };

const schemaType = (schema: Json): string | undefined =>
  Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== 'null') : schema?.type;

export class Contract {
  readonly routes: RouteSpec[] = [];
  private readonly errorValidator: () => ValidateFunction;
  private readonly requestPtrs = new Set<string>();

  constructor(
    readonly api: string,
    readonly doc: Json,
    private readonly options: {
      /** Validators keyed `${api}${pointer}`, used instead of compiling those schemas. */
      precompiled?: Record<string, ValidateFunction>;
      /** Compiles the schemas with no precompiled validator (ajvCompiler). */
      compiler?: SchemaCompiler;
    },
  ) {
    this.errorValidator = this.lazy('#/components/schemas/Error');
    for (const [path, rawItem] of Object.entries<Json>(doc.paths ?? {})) {
      const item = resolveRef(doc, rawItem);
      for (const method of ['get', 'put', 'post', 'patch', 'delete'] as const) {
        if (item[method]) this.routes.push(this.route(path, method, item));
      }
    }
  }

  /** The pointers of the schemas that parsing a request compiles (parameters, JSON bodies), once each. */
  requestPointers(): string[] {
    return [...this.requestPtrs];
  }

  /** A validator of the schema at a JSON pointer of the document: the precompiled one, or compiled on first use. */
  private lazy(pointer: string): () => ValidateFunction {
    const key = `${this.api}${pointer}`;
    let validate = this.options.precompiled?.[key];
    return () => {
      validate ??= this.options.compiler?.(key);
      if (!validate)
        throw new Error(
          `no validator of ${key} was compiled with the package, and this contract compiles none: rebuild the package (npm run build)`,
        );
      return validate;
    };
  }

  private route(path: string, method: string, item: Json): RouteSpec {
    const op = item[method];
    const [scheme] = Object.keys((op.security ?? this.doc.security ?? [])[0] ?? {});
    const opPtr = `#/paths/${escapePointerToken(path)}/${method}`;
    const params: RouteParam[] = [...(item.parameters ?? []), ...(op.parameters ?? [])]
      .map((raw: Json, i: number) => {
        const p = resolveRef(this.doc, raw);
        const schema = resolveRef(this.doc, p.schema);
        const array = schemaType(schema) === 'array';
        const ptr = raw.$ref ? `${raw.$ref}/schema` : `${opPtr}/parameters/${i}/schema`;
        if (p.in === 'path' || p.in === 'query') this.requestPtrs.add(ptr);
        return {
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          array,
          explode: p.explode ?? (p.style ?? 'form') === 'form',
          schema,
          itemType: schemaType(array ? resolveRef(this.doc, schema.items) : schema),
          validator: this.lazy(ptr),
        };
      })
      .filter((p: RouteParam) => p.in === 'path' || p.in === 'query');

    const queryForms = params.filter((p) => p.in === 'query');
    const bodyMedia = resolveRef(this.doc, op.requestBody)?.content?.['application/json'];
    const bodyRequired = Boolean(resolveRef(this.doc, op.requestBody)?.required);
    const bodyPtr = `${op.requestBody?.$ref ?? `${opPtr}/requestBody`}/content/application~1json/schema`;
    if (bodyMedia) this.requestPtrs.add(bodyPtr);
    const bodyValidator = bodyMedia ? this.lazy(bodyPtr) : null;
    // Object fields without declared properties keep whatever JSON they are given.
    const bodySchema = resolveRef(this.doc, bodyMedia?.schema);
    const freeFormFields = new Set<string>();
    for (const [name, raw] of Object.entries<Json>(bodySchema?.properties ?? {})) {
      const schema = resolveRef(this.doc, raw);
      if (schemaType(schema) === 'object' && !schema.properties) freeFormFields.add(name);
    }

    // Only a sandbox that validates its answers (tests) compiles these.
    const responses = new Map<number, { pointer: string; validator: () => ValidateFunction }>();
    const statuses = Object.keys(op.responses ?? {})
      .filter((status) => /^\d{3}$/.test(status))
      .map(Number);
    for (const status of statuses) {
      const raw = op.responses[status];
      if (!resolveRef(this.doc, raw)?.content?.['application/json']) continue;
      const pointer = `${raw.$ref ?? `${opPtr}/responses/${status}`}/content/application~1json/schema`;
      responses.set(status, { pointer, validator: this.lazy(pointer) });
    }

    return {
      api: this.api,
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      security: CREDENTIALS[this.doc.components?.securitySchemes?.[scheme]?.type] ?? 'none',
      hasBody: Boolean(bodyMedia),
      bodySchema: bodyMedia?.schema,
      params,
      statuses,
      responseSchemaPointer: (status) => responses.get(status)?.pointer,
      responseValidator: (status) => responses.get(status)?.validator(),
      parse: ({ params: rawParams, query: rawQuery, body }) => {
        const violations: Violation[] = [];
        const value: ParsedRequest = { params: {}, query: {}, body: undefined };
        // Every API refuses a query its operation does not declare or writes in another form (S12, S15).
        const forms = queryFormViolations(rawQuery, queryForms);
        violations.push(...forms.violations);
        for (const p of params) {
          if (p.in === 'query' && forms.refused.has(p.name)) continue;
          const texts =
            p.in === 'path' ? (rawParams[p.name] === undefined ? [] : [rawParams[p.name]]) : rawQuery.getAll(p.name);
          if (texts.length === 0 || (p.in === 'path' && texts[0] === '')) {
            if (p.required) violations.push({ field: p.name, reasonCode: 'REQUIRED', params: {} });
            continue;
          }
          // A repeated form parameter that is not an exploded array was refused above.
          const v = p.array
            ? (p.explode ? texts : texts[0].split(',')).map((t) => coerce(t, p.itemType))
            : coerce(texts[0], p.itemType);
          const validate = p.validator();
          if (!validate(v)) {
            const joined = commaJoinedViolation(p, texts);
            violations.push(...(joined ? [joined] : violationsOf(validate.errors, p.name)));
          } else (p.in === 'path' ? value.params : value.query)[p.name] = v;
        }
        if (bodyValidator && body === undefined) {
          if (bodyRequired) violations.push({ field: 'body', reasonCode: 'REQUIRED', params: {} });
        } else if (bodyValidator) {
          // Bounds first: the validator need never walk an unbounded value.
          const limits = bodyLimitViolations(body, freeFormFields);
          const validate = bodyValidator();
          if (limits.length) violations.push(...limits);
          else if (!validate(body)) violations.push(...violationsOf(validate.errors, 'body'));
          else value.body = body;
        }
        return violations.length ? { ok: false, violations } : { ok: true, value };
      },
      checkResponse: (status, body) => {
        if (body === undefined && statuses.includes(status) && !responses.has(status)) return [];
        const validate = responses.get(status)?.validator() ?? (status >= 400 ? this.errorValidator() : undefined);
        if (!validate) return [`status ${status} is not declared for ${op.operationId}`];
        return problemsOf(validate, body);
      },
    };
  }

  /** Violations of the document's error schema (for answers outside any route). */
  checkError(body: unknown): string[] {
    return problemsOf(this.errorValidator(), body);
  }
}

const problemsOf = (validate: ValidateFunction, body: unknown): string[] =>
  validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
