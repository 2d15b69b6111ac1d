import type { SandboxClock } from './clock.js';
import type { Handler } from './partner-handlers.js';
import type { PartnerState } from './partner-state.js';
import type { V2State } from './v2-state.js';
import type { WebhookDelivery } from './delivery.js';
export interface ControlDeps {
    partner: PartnerState;
    delivery: WebhookDelivery;
    v2: V2State;
    clock: SandboxClock;
    credentials: () => {
        url: string;
        authKey: string;
        accessToken: string;
    };
}
export declare function controlHandlers({ partner, v2, clock, delivery, credentials }: ControlDeps): Record<string, Handler>;
