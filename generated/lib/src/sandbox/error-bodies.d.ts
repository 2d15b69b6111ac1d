import type { Violation } from './contract.js';
export type ApiName = 'v2' | 'partner' | 'sandbox';
/** The body of an error answer of one API. */
export declare function errorBody(api: ApiName, status: number, message?: string, violations?: Violation[]): Record<string, unknown>;
/**
 * Which API a URL belongs to, for answers outside any route. Decided on the
 * decoded path, as the router matches it (`/%762/…` is `/v2/…`).
 */
export declare function apiOf(url: string): ApiName;
