import { DEFAULT_LIMIT, DEFAULT_PAGE } from './paging.js';
/** Records by the keys they currently have; `set` replaces an item's keys. */
export class KeyIndex {
    byKey = new Map();
    keysOf = new Map();
    set(item, keys) {
        this.delete(item);
        if (keys.length === 0)
            return;
        const own = [...new Set(keys)]; // the caller's array may change later
        this.keysOf.set(item, own);
        for (const key of own) {
            let set = this.byKey.get(key);
            if (!set)
                this.byKey.set(key, (set = new Set()));
            set.add(item);
        }
    }
    delete(item) {
        for (const key of this.keysOf.get(item) ?? []) {
            const set = this.byKey.get(key);
            set.delete(item);
            if (set.size === 0)
                this.byKey.delete(key);
        }
        this.keysOf.delete(item);
    }
    get(key) {
        return this.byKey.get(key) ?? EMPTY;
    }
    first(key) {
        return this.get(key).values().next().value;
    }
}
const EMPTY = new Set();
/**
 * The newest-first page of `order[lo, hi)` (oldest first, `seq` ascending)
 * that passes every filter, and their count. Starts from the smallest index
 * set when one is smaller than the range, else walks the range from its
 * newest end and stops as soon as the page and the count are known.
 */
export function newestFirst(order, filters, paging, lo = 0, hi = order.length) {
    const start = (paging.page ?? DEFAULT_PAGE) * (paging.limit ?? DEFAULT_LIMIT);
    const end = start + (paging.limit ?? DEFAULT_LIMIT);
    const sized = filters.filter((f) => f.sets).map((f) => ({ f, size: f.sets.reduce((n, s) => n + s.size, 0) }));
    const smallest = sized.sort((a, b) => a.size - b.size)[0];
    if (smallest && smallest.size < hi - lo) {
        const candidates = smallest.f.sets.length === 1 ? [...smallest.f.sets[0]] : [...new Set(smallest.f.sets.flatMap((s) => [...s]))];
        const matches = candidates.filter((item) => filters.every((f) => f.test(item))).sort((a, b) => b.seq - a.seq);
        return { items: matches.slice(start, end), count: matches.length };
    }
    const walked = filters.filter((f) => !f.coveredByRange);
    // The count is known without walking when nothing filters the range, or one disjoint index alone filters all of it.
    let count;
    if (walked.length === 0)
        count = hi - lo;
    else if (walked.length === 1 && walked[0].disjoint && lo === 0 && hi === order.length)
        count = walked[0].sets.reduce((n, s) => n + s.size, 0);
    const items = [];
    let seen = 0;
    for (let i = hi - 1; i >= lo; i--) {
        if (count !== undefined && seen >= end)
            break;
        const item = order[i];
        if (!walked.every((f) => f.test(item)))
            continue;
        if (seen >= start && seen < end)
            items.push(item);
        seen++;
    }
    return { items, count: count ?? seen };
}
/** First index in `order` whose key is >= `value` (keys ascending). */
export function lowerBound(order, key, value, strict = false) {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const k = key(order[mid]);
        if (strict ? k <= value : k < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
