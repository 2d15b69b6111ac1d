import type { WebhookSchema } from '../../generated/validators/partner-webhooks.js';
import type { PayloadIssue } from './errors.js';
/** An issue and the keyword that raised it (the tolerant filters of parse.ts read it). */
export interface SchemaIssue extends PayloadIssue {
    keyword: string;
}
type Defs = Readonly<Record<string, WebhookSchema>>;
/** Every way `value` at `path` breaks `schema`; none when it keeps it. */
export declare function schemaIssues(value: unknown, schema: WebhookSchema, defs: Defs, path?: string): SchemaIssue[];
export {};
