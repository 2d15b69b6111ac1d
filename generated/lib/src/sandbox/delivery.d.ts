import type { EmittedEvent } from './partner-api.js';
import type { DeliveryResult } from './partner-control.js';
export declare const DOCUMENTED_RETRY_INTERVAL_MS: number;
export interface DeliveryOptions {
    clock: {
        now(): Date;
    };
    /** The partner's webhookUrl now, or undefined when none is set. */
    target: () => string | undefined;
    /** The auth key that signs now (a rotation applies to the next attempt). */
    authKey: () => string;
    /** Updates the event's history record in place. */
    record: (eventId: string, result: DeliveryResult) => void;
    /** Retry interval; the service's is 15 minutes, tests shorten it. */
    retryIntervalMs?: number;
    /** How long one attempt may take before it counts as no answer. */
    attemptTimeoutMs?: number;
}
export declare class WebhookDelivery {
    private readonly options;
    private readonly queue;
    private readonly waiting;
    private sending;
    private closed;
    private readonly controller;
    private readonly retryMs;
    private readonly timeoutMs;
    constructor(options: DeliveryOptions);
    /** Queues an event for delivery, in the order it was emitted. */
    enqueue({ event }: EmittedEvent): void;
    /** Retries now whatever is due by the sandbox clock (after it was advanced). */
    retryDue(): void;
    /** Drops pending deliveries (a reset of the sandbox). */
    clear(): void;
    close(): void;
    private requeue;
    private pump;
    private attempt;
}
