// The one shape every check of a request reports a broken rule in, shared by
// the route checks (routes.ts) and the rules they call (body-limits.ts,
// query-strictness.ts), so those rules need nothing of the routes.

/** One offending input: where it is, which rule it broke, the rule's parameters. */
export interface Violation {
  field: string;
  reasonCode: string;
  params: Record<string, unknown>;
}
