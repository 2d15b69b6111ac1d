// The handlers' types, read from the generated `operations`: a handler answering an undocumented status or a wrong
// shape fails `tsc`. Errors are thrown (SandboxError), not answered.
import type { ParsedRequest } from '../../contract/routes.js';

/** A handler as the dispatcher holds it: any parsed request in, any status and body out. */
export type Handler = (req: ParsedRequest) => [number, unknown];

/** The statuses a handler answers with; the rest are errors (SandboxError). */
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206;

/** The JSON body of a response; undefined for one without content (a 204). */
type BodyOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : undefined;

/** What an operation of openapi-typescript's `operations` holds that the handlers read. */
interface DocumentedOperation {
  parameters: { query?: unknown; path?: unknown };
  requestBody?: unknown;
  responses: object;
}

/** `[status, body]` for each success status the operation documents. */
export type AnswerOf<Operation extends DocumentedOperation> = {
  [Status in keyof Operation['responses'] & SuccessStatus]: [Status, BodyOf<Operation['responses'][Status]>];
}[keyof Operation['responses'] & SuccessStatus];

/** A value that is `never` when absent (openapi-typescript writes `query?: never`) read as `{}`. */
type OrEmpty<Value> = [Value] extends [never] ? Record<string, never> : Value;

/** The request as the route's parse hands it over: path and query values converted, the body checked. */
export interface RequestOf<Operation extends DocumentedOperation> {
  params: OrEmpty<NonNullable<Operation['parameters']['path']>>;
  query: OrEmpty<NonNullable<Operation['parameters']['query']>>;
  /** Undefined when the operation takes no body, or an optional one was not sent. */
  body:
    | BodyOf<NonNullable<Operation['requestBody']>>
    | (undefined extends Operation['requestBody'] ? undefined : never);
}

/** The methods a document's path item may hold an operation under. */
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The operations a document's `paths` hold (its webhooks' operations are sent, not served). */
type RoutedOperation<Paths> = { [Path in keyof Paths]: Paths[Path][keyof Paths[Path] & Method] }[keyof Paths];

/** The operationIds of the operations the document's paths hold. */
type RoutedId<Operations, Paths> = {
  [Id in keyof Operations]: Operations[Id] extends RoutedOperation<Paths> ? Id : never;
}[keyof Operations];

/** A handler for each operation of a document's paths, by operationId. */
export type Handlers<Operations extends Record<keyof Operations, DocumentedOperation>, Paths> = {
  [Id in RoutedId<Operations, Paths>]: (req: RequestOf<Operations[Id]>) => AnswerOf<Operations[Id]>;
};
