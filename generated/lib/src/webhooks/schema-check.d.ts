import type { WebhookSchema } from '../../generated/validators/partner-webhooks.js';
import type { PayloadIssue } from './errors.js';
/** An issue and the keyword that raised it (the tolerant filters of parse.ts read it). */
export interface SchemaIssue extends PayloadIssue {
    keyword: string;
}
type Defs = Readonly<Record<string, WebhookSchema>>;
/**
 * A subschema as JSON Schema allows it: `true` keeps every value, `false`
 * none. The reducer passes booleans through where a keyword takes one
 * schema (items, not, if, then, else, additionalProperties).
 */
type Subschema = WebhookSchema | boolean;
/** Every way `value` at `path` breaks `schema`; none when it keeps it. */
export declare function schemaIssues(value: unknown, schema: Subschema, defs: Defs, path?: string): SchemaIssue[];
export {};
