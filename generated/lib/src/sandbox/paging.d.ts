import type { Paging } from './partner-api.js';
export declare const DEFAULT_PAGE = 0;
export declare const DEFAULT_LIMIT = 15;
/** One page of `items` and the total; `limit: 0` asks for the count only. */
export declare function pageOf<T>(items: readonly T[], paging: Paging): {
    items: T[];
    count: number;
};
/** `from` exclusive ("more recent than"), `to` inclusive ("not older than"), DECISIONS S1; an absent bound does not restrict. */
export declare function inWindow(value: string | undefined, from?: string, to?: string): boolean;
/** A comma-separated filter: absent or empty keeps everything, else any match keeps. */
export declare function matchesAny<T>(wanted: readonly T[] | undefined, actual: readonly T[]): boolean;
