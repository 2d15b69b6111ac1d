export class WebhookLog {
    newId;
    now;
    entries = [];
    constructor(newId, now) {
        this.newId = newId;
        this.now = now;
    }
    /** `metadata` is the verification's own, kept on verification records only. */
    add(emitted, metadata = {}) {
        const { event } = emitted;
        const at = event.createdAt;
        // The event is never changed after it is emitted (see PartnerState.emit).
        const common = { id: this.newId(), success: false, payload: event, retryAt: null, createdAt: at, updatedAt: at };
        if (emitted.verificationId !== undefined) {
            this.entries.push({
                eventId: event.eventId,
                kind: 'verification',
                record: { ...common, verificationId: emitted.verificationId, type: 'verification', metadata: { ...metadata } },
            });
        }
        if (emitted.userId !== undefined) {
            this.entries.push({
                eventId: event.eventId,
                kind: 'user',
                record: { ...common, id: emitted.verificationId !== undefined ? this.newId() : common.id, userId: emitted.userId, type: 'user' },
            });
        }
    }
    forVerification(verificationId) {
        return this.entries.flatMap((e) => e.kind === 'verification' && e.record.verificationId === verificationId ? [structuredClone(e.record)] : []);
    }
    forUser(userId) {
        return this.entries.flatMap((e) => (e.kind === 'user' && e.record.userId === userId ? [structuredClone(e.record)] : []));
    }
    /** False when no record holds the event (for example after a reset). */
    recordDelivery(eventId, result) {
        const hits = this.entries.filter((e) => e.eventId === eventId);
        const at = this.now();
        for (const { record } of hits) {
            record.success = result.success;
            record.retryAt = result.retryAt;
            record.updatedAt = at;
            if (result.reason !== undefined)
                record.reason = result.reason;
            else if (result.success)
                delete record.reason;
        }
        return hits.length > 0;
    }
}
