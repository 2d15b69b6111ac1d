// What the partner contract adds, on purpose, to the service's partner
// documentation. The partner-document tests let additions through and fail,
// in test/partner-document.test.ts, until one is listed here: so every
// addition is a decision someone wrote down, and this file the list of them.

/**
 * Fields added to a documented object, by its name in
 * openapi/partner/components/schemas, for example `Verification: ['riskScore']`
 * (`CollectedDocument.result` is the object in that schema's `result`).
 */
export const ADDED_FIELDS: Record<string, string[]> = {};

/** Values added to a documented closed enum, by component name (`VerificationStatus`, `RequirementType`, `EstimatedAge`, `DocumentType`). */
export const ADDED_VALUES: Record<string, string[]> = {};

/** Operations added to the documented ones, as `method /path`. */
export const ADDED_OPERATIONS: string[] = [];

/** Query parameters added to an operation, by its `method /path`, for example `'get /users': ['hasExternalUser']`. */
export const ADDED_PARAMETERS: Record<string, string[]> = {};

/**
 * Fields the API team deprecated beyond those the documentation deprecates,
 * by the openapi/partner component schema that marks them `deprecated: true`,
 * for example `Verification: ['author']`; guides/contract.md, "Deprecate a
 * field", is the whole recipe.
 */
export const ADDED_DEPRECATIONS: Record<string, string[]> = {};

const HERE = 'test/helpers/partner-additions.ts';
const RECIPE = 'guides/contract.md, "Deprecate a field"';

/**
 * What is wrong with the fields a schema marks deprecated, given those the
 * documentation deprecates in it and those the API team added (by default
 * its ADDED_DEPRECATIONS entry): each message names the field and says where
 * a deprecation is declared.
 */
export function deprecationProblems(
  schema: string,
  properties: Record<string, { deprecated?: unknown }>,
  documented: string[],
  added: string[] = ADDED_DEPRECATIONS[schema] ?? [],
): string[] {
  const marked = Object.entries(properties)
    .filter(([, p]) => p?.deprecated === true)
    .map(([name]) => name);
  const entry = `ADDED_DEPRECATIONS.${schema}`;
  const problems = marked
    .filter((name) => !documented.includes(name) && !added.includes(name))
    .map(
      (name) =>
        `field ${name} of ${schema} is marked deprecated, which the documentation does not say; if the API team deprecated it on purpose, add '${name}' to ${entry} in ${HERE} (${RECIPE})`,
    );
  for (const name of documented.filter((n) => n in properties && !marked.includes(n)))
    problems.push(
      `field ${name} of ${schema} is deprecated in the documentation: mark it \`deprecated: true\` in openapi/partner/components/schemas/${schema}.yaml`,
    );
  for (const name of added.filter((n) => documented.includes(n) || !marked.includes(n)))
    problems.push(
      `${entry} lists '${name}', which ${documented.includes(name) ? 'the documentation deprecates already' : `${schema} does not mark deprecated`}: remove it from ${HERE}, or mark the field (${RECIPE})`,
    );
  return problems;
}
