// What the partner contract adds, on purpose, to the service's partner
// documentation: fields, enum values and operations the documentation does
// not list. The lists in partner-document.ts restate the documentation and
// do not change with the contract; the test/partner-document*.test.ts files
// hold openapi/partner to them (nothing documented dropped or retyped) and
// let anything else through, so an addition shows in one place only: the
// "additions" tests of test/partner-document.test.ts, which fail until the
// addition is listed here. Keeping it listed makes every addition a
// decision someone wrote down, and this file the list of them.

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
