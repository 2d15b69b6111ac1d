import type { ParsedRequest } from './contract.js';
import type { PartnerApi } from './partner-api.js';
export type Handler = (req: ParsedRequest) => [number, unknown];
export declare function partnerHandlers(state: PartnerApi): Record<string, Handler>;
