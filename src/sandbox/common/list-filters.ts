// A local sandbox list's filters, keyed by every query parameter its operation documents: a parameter added to a
// document and to no table fails `tsc` (so `npm run build`) naming it, instead of the list answering unfiltered.

/** The parameters a list reads beside its filters: its paging, and the field its time window applies to. */
type ReadBeside = 'page' | 'limit' | 'pageSize' | 'datetimeField';

/**
 * How a list reads each documented query parameter: a test of one record
 * against the asked value (the whole query beside it, for a parameter that
 * qualifies another), or `null` for one read beside the filters. Only those
 * may be `null`, so a new filter cannot be silenced by one.
 */
export type ListFilters<Query, R> = {
  [Name in keyof Query]-?: Name extends ReadBeside
    ? null
    : (record: R, value: NonNullable<Query[Name]>, query: Query) => boolean;
};

type Test<Query, R> = (record: R, value: unknown, query: Query) => boolean;

/** The records every asked filter keeps; an absent parameter keeps everything. */
export function filtered<Query extends object, R>(
  records: Iterable<R>,
  query: Query,
  filters: NoInfer<ListFilters<Query, R>>,
): R[] {
  const asked = (Object.keys(query) as (keyof Query)[]).filter((name) => query[name] !== undefined);
  const tests = asked.flatMap((name) => {
    const test = filters[name] as Test<Query, R> | null;
    return test ? [(record: R) => test(record, query[name], query)] : [];
  });
  return [...records].filter((record) => tests.every((keeps) => keeps(record)));
}
