// A local sandbox list's filters, keyed by every query parameter its operation documents: a parameter added to a
// document and to no table fails `tsc` (so `npm run build`) naming it, instead of the list answering unfiltered.

/**
 * How a list reads each documented query parameter: a test of one record
 * against the asked value (the whole query beside it, for a parameter that
 * qualifies another), or `null` for one read elsewhere (paging) or by
 * another's test.
 */
export type ListFilters<Query, R> = {
  [Name in keyof Query]-?: ((record: R, value: NonNullable<Query[Name]>, query: Query) => boolean) | null;
};

/** The records every asked filter keeps; an absent parameter keeps everything. */
export function filtered<Query extends object, R>(
  records: Iterable<R>,
  query: Query,
  filters: NoInfer<ListFilters<Query, R>>,
): R[] {
  const asked = (Object.keys(query) as (keyof Query)[]).filter((name) => query[name] !== undefined);
  const tests = asked.flatMap((name) => {
    const test = filters[name];
    return test ? [(record: R) => test(record, query[name] as NonNullable<Query[typeof name]>, query)] : [];
  });
  return [...records].filter((record) => tests.every((keeps) => keeps(record)));
}
