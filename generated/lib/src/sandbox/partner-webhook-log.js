import { jsonCopy } from './json-copy.js';
export class WebhookLog {
    newId;
    now;
    entries = [];
    byOwner = new Map();
    byEvent = new Map();
    constructor(newId, now, saved = []) {
        this.newId = newId;
        this.now = now;
        for (const entry of saved)
            this.push(entry);
    }
    /** `metadata` is the verification's own, kept on verification records only. */
    add(emitted, metadata = {}) {
        const { event } = emitted;
        const at = event.createdAt;
        // The event is never changed after it is emitted (see PartnerStore.emit).
        const common = { id: this.newId(), success: false, payload: event, retryAt: null, createdAt: at, updatedAt: at };
        if (emitted.verificationId !== undefined) {
            this.push({
                eventId: event.eventId,
                kind: 'verification',
                record: { ...common, verificationId: emitted.verificationId, type: 'verification', metadata: { ...metadata } },
            });
        }
        if (emitted.userId !== undefined) {
            this.push({
                eventId: event.eventId,
                kind: 'user',
                record: { ...common, id: emitted.verificationId !== undefined ? this.newId() : common.id, userId: emitted.userId, type: 'user' },
            });
        }
    }
    forVerification(verificationId) {
        return (this.byOwner.get(`v:${verificationId}`) ?? []).map((e) => jsonCopy(e.record));
    }
    forUser(userId) {
        return (this.byOwner.get(`u:${userId}`) ?? []).map((e) => jsonCopy(e.record));
    }
    /** The emitted event with this id, for a delivery still pending after a restart. */
    emitted(eventId) {
        const hits = this.byEvent.get(eventId);
        if (!hits)
            return undefined;
        const emitted = { event: hits[0].record.payload };
        for (const e of hits) {
            if (e.kind === 'verification')
                emitted.verificationId = e.record.verificationId;
            else
                emitted.userId = e.record.userId;
        }
        return emitted;
    }
    /** False when no record holds the event (for example after a reset). */
    recordDelivery(eventId, result) {
        const hits = this.byEvent.get(eventId) ?? [];
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
    saved() {
        return this.entries;
    }
    push(entry) {
        this.entries.push(entry);
        const owner = entry.kind === 'verification' ? `v:${entry.record.verificationId}` : `u:${entry.record.userId}`;
        for (const [map, key] of [[this.byOwner, owner], [this.byEvent, entry.eventId]]) {
            const list = map.get(key);
            if (list)
                list.push(entry);
            else
                map.set(key, [entry]);
        }
    }
}
