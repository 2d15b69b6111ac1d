// Paging, filters and time windows shared by every partner list.

export type Paging = { page?: number; limit?: number };

/** The entries of a list whose only documented parameters are its paging. */
export const PAGES_ONLY = { page: null, limit: null } as const;

/** One page of `items` (15 from page 0 unless asked) and the total; `limit: 0` asks for the count only. */
export function pageOf<T>(items: readonly T[], { page = 0, limit = 15 }: Paging): { items: T[]; count: number } {
  return { items: items.slice(page * limit, page * limit + limit), count: items.length };
}

/** `from` is exclusive ("more recent than"), `to` inclusive ("not older than"), S1; a record without the time is outside either. */
export const inWindow = (value: string | undefined, bound: string, side: 'from' | 'to') =>
  value !== undefined && Date.parse(value) > Date.parse(bound) === (side === 'from');

/** A comma-separated filter: absent or empty keeps everything, else a record holding any wanted value is kept. */
export const wants = <T>(wanted: readonly T[] | undefined, ...held: NoInfer<T | null>[]) =>
  !wanted?.length || held.some((value) => wanted.includes(value as T));
