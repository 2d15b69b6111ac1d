import type { Paging } from './partner-api.js';
/** Records by the keys they currently have; `set` replaces an item's keys. */
export declare class KeyIndex<K, T> {
    private readonly byKey;
    private readonly keysOf;
    set(item: T, keys: readonly K[]): void;
    delete(item: T): void;
    get(key: K): ReadonlySet<T>;
    first(key: K): T | undefined;
}
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
export declare function newestFirst<T extends {
    seq: number;
}>(order: readonly T[], filters: Filter<T>[], paging: Paging, lo?: number, hi?: number): {
    items: T[];
    count: number;
};
/** First index in `order` whose key is >= `value` (keys ascending). */
export declare function lowerBound<T>(order: readonly T[], key: (item: T) => number, value: number, strict?: boolean): number;
