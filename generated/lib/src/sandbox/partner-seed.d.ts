import type { PartnerApi } from './partner-api.js';
import type { PartnerControl, SeedResult } from './partner-control.js';
export declare function seedPartnerState(state: PartnerApi & PartnerControl, randomUUID: () => string): SeedResult;
