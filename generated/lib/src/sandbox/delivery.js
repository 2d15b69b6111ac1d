// Sends the sandbox's webhooks to the partner's webhookUrl as the service
// does: POST, the JSON envelope, X-SIGNATURE with the current auth key; any
// answer but 200 (or none) is retried on the retry interval. Delivery runs
// beside the API: an API call only enqueues, so a slow or dead receiver
// never slows or fails it.
import { signWebhookPayload } from '../webhooks/signature.js';
export const DOCUMENTED_RETRY_INTERVAL_MS = 15 * 60_000;
export class WebhookDelivery {
    options;
    queue = [];
    waiting = new Set();
    sending = false;
    closed = false;
    controller = new AbortController();
    retryMs;
    timeoutMs;
    constructor(options) {
        this.options = options;
        this.retryMs = options.retryIntervalMs ?? DOCUMENTED_RETRY_INTERVAL_MS;
        this.timeoutMs = options.attemptTimeoutMs ?? 10_000;
    }
    /** Queues an event for delivery, in the order it was emitted. */
    enqueue({ event }) {
        // The service sends to the address set at the time of the event.
        if (this.closed || !this.options.target())
            return;
        // Serialized once: every attempt sends (and signs) the same bytes.
        this.queue.push({ eventId: event.eventId, body: JSON.stringify(event), due: this.options.clock.now().getTime() });
        void this.pump();
    }
    /** Retries now whatever is due by the sandbox clock (after it was advanced). */
    retryDue() {
        const now = this.options.clock.now().getTime();
        for (const pending of this.waiting) {
            if (pending.due <= now)
                this.requeue(pending);
        }
    }
    /** Drops pending deliveries (a reset of the sandbox). */
    clear() {
        this.queue.length = 0;
        for (const pending of this.waiting)
            clearTimeout(pending.timer);
        this.waiting.clear();
    }
    close() {
        this.closed = true;
        this.clear();
        this.controller.abort();
    }
    requeue(pending) {
        clearTimeout(pending.timer);
        this.waiting.delete(pending);
        this.queue.push(pending);
        void this.pump();
    }
    // One attempt at a time keeps first deliveries in the documented order.
    async pump() {
        if (this.sending)
            return;
        this.sending = true;
        try {
            for (let next = this.queue.shift(); next && !this.closed; next = this.queue.shift())
                await this.attempt(next);
        }
        finally {
            this.sending = false;
        }
    }
    async attempt(pending) {
        const url = this.options.target();
        if (!url)
            return; // nothing to deliver to: the record stays as it is
        let reason;
        try {
            const res = await fetch(url, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', 'X-SIGNATURE': signWebhookPayload(pending.body, this.options.authKey()) },
                body: pending.body,
                signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(this.timeoutMs)]),
            });
            await res.arrayBuffer().catch(() => undefined);
            if (res.status === 200) {
                this.options.record(pending.eventId, { success: true, retryAt: null });
                return;
            }
            reason = `the webhook address answered ${res.status}`;
        }
        catch (err) {
            if (this.closed)
                return;
            const cause = err.cause?.code;
            reason = `no answer from the webhook address (${cause ?? err.name})`;
        }
        pending.due = this.options.clock.now().getTime() + this.retryMs;
        this.options.record(pending.eventId, { success: false, retryAt: new Date(pending.due).toISOString(), reason });
        pending.timer = setTimeout(() => this.requeue(pending), this.retryMs);
        pending.timer.unref();
        this.waiting.add(pending);
    }
}
