// Indexes that keep the partner lists' cost independent of how much is
// stored (DECISIONS S20): records by each key a list filters on, and a
// newest-first pager that starts from the smallest index a query names
// instead of scanning every record.
import type { Paging } from './api.js';
import { DEFAULT_LIMIT, DEFAULT_PAGE } from './paging.js';

/** Where a record keeps its keys in every index: one array, a slot per index (JSON and copies skip symbol keys). */
const INDEX_KEYS = Symbol('index keys');
/** Slot numbers by index name: the same name always has the same slot. */
const SLOTS = new Map<string, number>();

/**
 * Records by the keys they currently have; `set` replaces an item's keys.
 * Most keys (an externalUserId, a phone number) name one record, so a key
 * holds its record itself until a second one joins it; an item keeps its
 * keys in its own slot array, so a create adds one map entry per key here
 * and allocates no Set.
 */
export class KeyIndex<K, T extends object> {
  private readonly byKey = new Map<K, T | Set<T>>();
  private readonly slot: number;

  /** `name` names the index (its slot in each record); two indexes of one record type need two names. */
  constructor(name: string) {
    let slot = SLOTS.get(name);
    if (slot === undefined) SLOTS.set(name, (slot = SLOTS.size));
    this.slot = slot;
  }

  set(item: T, keys: readonly K[]): void {
    const had = this.keysOf(item);
    if (keys.length === 1 && had !== undefined && !Array.isArray(had) && had === keys[0]) return;
    if (had !== undefined) this.delete(item);
    if (keys.length === 0) return;
    if (keys.length === 1) {
      this.keep(item, keys[0]);
      this.add(keys[0], item);
      return;
    }
    const own = [...new Set(keys)]; // the caller's array may change later
    this.keep(item, own);
    for (const key of own) this.add(key, item);
  }

  delete(item: T): void {
    const had = this.keysOf(item);
    if (had === undefined) return;
    if (Array.isArray(had)) for (const key of had) this.remove(key, item);
    else this.remove(had as K, item);
    this.keep(item, undefined);
  }

  get(key: K): ReadonlySet<T> {
    const at = this.byKey.get(key);
    if (at === undefined) return EMPTY;
    return at instanceof Set ? at : new Set([at]);
  }

  first(key: K): T | undefined {
    const at = this.byKey.get(key);
    return at instanceof Set ? at.values().next().value : at;
  }

  private keysOf(item: T): K | K[] | undefined {
    return (item as { [INDEX_KEYS]?: (K | K[] | undefined)[] })[INDEX_KEYS]?.[this.slot];
  }

  /** Object.keys, JSON and jsonCopy never see a symbol-keyed property (and no record is spread). */
  private keep(item: T, keys: K | K[] | undefined): void {
    const slots = ((item as { [INDEX_KEYS]?: unknown[] })[INDEX_KEYS] ??= []);
    slots[this.slot] = keys;
  }

  private add(key: K, item: T): void {
    const at = this.byKey.get(key);
    if (at === undefined) this.byKey.set(key, item);
    else if (at instanceof Set) at.add(item);
    else if (at !== item) this.byKey.set(key, new Set([at, item]));
  }

  private remove(key: K, item: T): void {
    const at = this.byKey.get(key);
    if (at === item) this.byKey.delete(key);
    else if (at instanceof Set) {
      at.delete(item);
      if (at.size === 0) this.byKey.delete(key);
    }
  }
}
const EMPTY: ReadonlySet<never> = new Set();

/** One filter of a list: a test, and when an index answers it, the sets of the wanted keys. */
export interface Filter<T> {
  test: (item: T) => boolean;
  sets?: ReadonlySet<T>[];
  /** The sets never share an item (one status per record), so their sizes add up to the count. */
  disjoint?: boolean;
  /** A creation-time window that `lo`/`hi` already apply when the range is walked. */
  coveredByRange?: boolean;
}

/**
 * The newest-first page of `order[lo, hi)` (oldest first, `seq` ascending)
 * that passes every filter, and their count. Starts from the smallest index
 * set when one is smaller than the range, else walks the range from its
 * newest end and stops as soon as the page and the count are known.
 */
export function newestFirst<T extends { seq: number }>(
  order: readonly T[],
  filters: Filter<T>[],
  paging: Paging,
  lo = 0,
  hi = order.length,
): { items: T[]; count: number } {
  const start = (paging.page ?? DEFAULT_PAGE) * (paging.limit ?? DEFAULT_LIMIT);
  const end = start + (paging.limit ?? DEFAULT_LIMIT);
  const sized = filters.filter((f) => f.sets).map((f) => ({ f, size: f.sets!.reduce((n, s) => n + s.size, 0) }));
  const smallest = sized.sort((a, b) => a.size - b.size)[0];
  if (smallest && smallest.size < hi - lo) {
    const candidates = smallest.f.sets!.length === 1 ? [...smallest.f.sets![0]] : [...new Set(smallest.f.sets!.flatMap((s) => [...s]))];
    const matches = candidates.filter((item) => filters.every((f) => f.test(item))).sort((a, b) => b.seq - a.seq);
    return { items: matches.slice(start, end), count: matches.length };
  }
  const walked = filters.filter((f) => !f.coveredByRange);
  // The count is known without walking when nothing filters the range, or one disjoint index alone filters all of it.
  let count: number | undefined;
  if (walked.length === 0) count = hi - lo;
  else if (walked.length === 1 && walked[0].disjoint && lo === 0 && hi === order.length) count = walked[0].sets!.reduce((n, s) => n + s.size, 0);
  const items: T[] = [];
  let seen = 0;
  for (let i = hi - 1; i >= lo; i--) {
    if (count !== undefined && seen >= end) break;
    const item = order[i];
    if (!walked.every((f) => f.test(item))) continue;
    if (seen >= start && seen < end) items.push(item);
    seen++;
  }
  return { items, count: count ?? seen };
}

/** First index in `order` whose key is >= `value` (keys ascending). */
export function lowerBound<T>(order: readonly T[], key: (item: T) => number, value: number, strict = false): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = key(order[mid]);
    if (strict ? k <= value : k < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Records by when they expire, soonest first (ties in creation order): a
 * binary heap, so a create adds in O(log n) and time passing pops only what
 * is due, however many are stored. A record that can no longer expire stays
 * until it surfaces; the caller skips it then.
 */
export class ExpiryQueue<T extends { seq: number }> {
  private readonly at: number[] = [];
  private readonly items: T[] = [];

  /** When the soonest queued record expires (ms since the epoch); Infinity when none is queued. */
  get next(): number {
    return this.at.length ? this.at[0] : Infinity;
  }

  push(item: T, atMs: number): void {
    let i = this.at.length;
    this.at.push(atMs);
    this.items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Removes and answers every record queued at or before `nowMs`, soonest first. */
  popDue(nowMs: number): T[] {
    const due: T[] = [];
    while (this.at.length && this.at[0] <= nowMs) due.push(this.pop());
    return due;
  }

  private pop(): T {
    const top = this.items[0];
    const lastAt = this.at.pop()!;
    const lastItem = this.items.pop()!;
    if (this.at.length) {
      this.at[0] = lastAt;
      this.items[0] = lastItem;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < this.at.length && this.before(left, least)) least = left;
        if (right < this.at.length && this.before(right, least)) least = right;
        if (least === i) break;
        this.swap(i, least);
        i = least;
      }
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    return this.at[a] < this.at[b] || (this.at[a] === this.at[b] && this.items[a].seq < this.items[b].seq);
  }

  private swap(a: number, b: number): void {
    [this.at[a], this.at[b]] = [this.at[b], this.at[a]];
    [this.items[a], this.items[b]] = [this.items[b], this.items[a]];
  }
}
