import { SandboxError } from './partner-api.js';
import { verificationEventData, userEventData } from './partner-views.js';
import { SandboxRandom } from './random.js';
import { KeyIndex } from './record-index.js';
import { WebhookLog } from './partner-webhook-log.js';
/** Statuses in which `validTo` still matters (source: "`validTo` reached" rows). */
export const EXPIRABLE = new Set(['created', 'started', 'waitingForUserInput']);
/** What a new create may close or conflict with. */
export const UNFINISHED = new Set([...EXPIRABLE, 'inReview']);
/** Reserved top-level domain (RFC 2606): a placeholder that can never receive a webhook. */
const UNSET_WEBHOOK_URL = 'https://partner.invalid/webhooks';
export class PartnerStore {
    options;
    rand;
    newId;
    publicUrl;
    webhookUrl;
    partner;
    authKeys = [];
    /** Creation order; `seq` is the position. */
    order = [];
    verifications = new Map();
    users = new Map();
    /** Users in creation order (deleted ones leave it). */
    userOrder = [];
    nextUserSeq = 0;
    fingerprintIds = new Map();
    nameTurn = 0;
    log;
    // Indexes: a create, a lookup or a list costs the same with 100,000 stored as with 100.
    unfinishedByPhone = new KeyIndex();
    expirable = new Set();
    nextExpiryMs = Infinity;
    byPhone = new KeyIndex();
    byExternalUserId = new KeyIndex();
    byUserId = new KeyIndex();
    byStatus = new KeyIndex();
    byDevice = new KeyIndex();
    byToken = new Map();
    /** Whether `createdAt` rises with `seq`, so a createdAt window is a range of `order`. */
    createdInOrder = true;
    usersByPhone = new KeyIndex();
    usersByExternalUserId = new KeyIndex();
    shareholders = new KeyIndex();
    constructor(options) {
        this.options = options;
        this.rand = options.random ?? new SandboxRandom();
        this.newId = options.newId ?? (() => this.rand.uuid());
        this.publicUrl = options.publicUrl.replace(/\/+$/, '');
        this.reset();
    }
    reset() {
        this.load({
            webhookUrl: this.options.webhookUrl,
            partner: { id: '', webhookUrl: '', name: 'Sandbox Partner', createdAt: '', updatedAt: '' },
            authKeys: [],
            verifications: [],
            users: [],
            fingerprintIds: [],
            log: [],
            nameTurn: 0,
            nextUserSeq: 0,
        });
        const now = this.nowIso();
        this.partner = { id: this.newId(), webhookUrl: this.webhookUrl ?? UNSET_WEBHOOK_URL, name: 'Sandbox Partner', createdAt: now, updatedAt: now };
        this.authKeys = [{ id: this.newId(), key: this.options.authKey, active: true, createdAt: now, updatedAt: now }];
    }
    /** The base of new verification `url`s (a replay uses the one of the process that made the change). */
    usePublicUrl(url) {
        this.publicUrl = url.replace(/\/+$/, '');
    }
    /** The state as JSON-ready data; shares objects with the live state, so serialize it at once. */
    snapshot() {
        return {
            webhookUrl: this.webhookUrl,
            partner: this.partner,
            authKeys: this.authKeys,
            verifications: this.order,
            users: this.userOrder,
            fingerprintIds: [...this.fingerprintIds],
            log: this.log.saved(),
            nameTurn: this.nameTurn,
            nextUserSeq: this.nextUserSeq,
        };
    }
    /** Replaces the whole state with a snapshot and rebuilds every index. */
    load(saved) {
        this.webhookUrl = saved.webhookUrl;
        this.partner = saved.partner;
        this.authKeys = saved.authKeys;
        this.fingerprintIds = new Map(saved.fingerprintIds);
        this.nameTurn = saved.nameTurn;
        this.nextUserSeq = saved.nextUserSeq;
        this.log = new WebhookLog(this.newId, () => this.nowIso(), saved.log);
        this.order = [];
        this.verifications = new Map();
        this.unfinishedByPhone = new KeyIndex();
        this.expirable = new Set();
        this.nextExpiryMs = Infinity;
        this.byPhone = new KeyIndex();
        this.byExternalUserId = new KeyIndex();
        this.byUserId = new KeyIndex();
        this.byStatus = new KeyIndex();
        this.byDevice = new KeyIndex();
        this.byToken = new Map();
        this.createdInOrder = true;
        for (const v of saved.verifications)
            this.addVerification(v);
        this.users = new Map();
        this.userOrder = [];
        this.usersByPhone = new KeyIndex();
        this.usersByExternalUserId = new KeyIndex();
        this.shareholders = new KeyIndex();
        for (const u of saved.users)
            this.addUser(u);
    }
    // ---- lookups ---------------------------------------------------------------
    clock() {
        return this.options.clock.now();
    }
    nowIso() {
        return this.clock().toISOString();
    }
    /** Every read or change first lets time do its work. */
    verification(id) {
        this.expireDue();
        const v = this.verifications.get(id);
        if (!v)
            throw new SandboxError(404, `Verification ${id} not found`);
        return v;
    }
    user(id) {
        this.expireDue();
        const u = this.users.get(id);
        if (!u)
            throw new SandboxError(404, `User ${id} not found`);
        return u;
    }
    userWithPhone(phoneNumber) {
        return this.usersByPhone.first(phoneNumber);
    }
    /** Overridden by the lifecycle: expires what the clock has passed. */
    expireDue() { }
    // ---- records and their indexes ---------------------------------------------
    addVerification(v) {
        const last = this.order.at(-1);
        if (last && last.data.createdAt > v.data.createdAt)
            this.createdInOrder = false;
        v.seq = this.order.length;
        this.order.push(v);
        this.verifications.set(v.data.id, v);
        this.byToken.set(v.token, v);
        this.byExternalUserId.set(v, [v.data.externalUserId]);
        this.reindex(v);
        if (UNFINISHED.has(v.data.status))
            this.track(v);
    }
    /** After a change of status, user, phone numbers or devices. */
    reindex(v) {
        this.byStatus.set(v, [v.data.status]);
        this.byUserId.set(v, v.data.userId ? [v.data.userId] : []);
        this.byPhone.set(v, v.data.phoneNumbers.map((p) => p.phoneNumber));
        this.byDevice.set(v, v.devices);
    }
    addUser(user) {
        if (this.users.has(user.id))
            return;
        if (user.seq === undefined || user.seq < 0)
            user.seq = this.nextUserSeq++;
        this.users.set(user.id, user);
        this.userOrder.push(user);
        this.reindexUser(user);
    }
    removeUser(user) {
        this.users.delete(user.id);
        this.userOrder.splice(this.userOrder.indexOf(user), 1);
        this.usersByPhone.delete(user);
        this.usersByExternalUserId.delete(user);
        this.shareholders.delete(user);
    }
    /** After a change of the user's phone numbers, external users or shares. */
    reindexUser(user) {
        this.usersByPhone.set(user, user.phoneNumbers.map((p) => p.phoneNumber));
        this.usersByExternalUserId.set(user, user.externalUsers.map((e) => e.id));
        this.shareholders.set(user, [user.shares.isShareholder]);
    }
    /** Every status change emits `verification.updated` (source, States notes). */
    setStatus(v, status, at = this.nowIso()) {
        v.data.status = status;
        v.data.updatedAt = at;
        if (!EXPIRABLE.has(status))
            this.expirable.delete(v);
        if (!UNFINISHED.has(status))
            this.unfinishedByPhone.delete(v);
        this.reindex(v);
        this.emitVerification(v, 'verification.updated', at);
    }
    /** Indexes a verification that is open or in review by phone, and one that can expire by its validTo. */
    track(v) {
        this.unfinishedByPhone.set(v, v.data.phoneNumbers.map((p) => p.phoneNumber));
        if (EXPIRABLE.has(v.data.status)) {
            this.expirable.add(v);
            this.nextExpiryMs = Math.min(this.nextExpiryMs, Date.parse(v.data.validTo));
        }
    }
    // ---- events ------------------------------------------------------------------
    envelope(dataType, eventType, data, at = this.nowIso()) {
        return { eventId: this.newId(), dataType, eventType, createdAt: at, data };
    }
    emitVerification(v, eventType, at) {
        this.emit({ event: this.envelope('verification', eventType, verificationEventData(v), at), verificationId: v.data.id }, v.data.metadata);
    }
    emitUser(user, eventType) {
        this.emit({ event: this.envelope('user', eventType, userEventData(user)), userId: user.id });
    }
    /** Records the webhook in the history it belongs to, then hands it to the HTTP layer. */
    // An event is built from copies of the store and never changed after, so
    // the history and the listeners share it rather than copy it again.
    emit(emitted, metadata) {
        this.log.add(emitted, metadata);
        this.options.onEvent(emitted);
    }
    /** The recorded webhook with this id (pending deliveries after a restart). */
    emitted(eventId) {
        return this.log.emitted(eventId);
    }
}
