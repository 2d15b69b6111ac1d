import { readStateFile, StateFile, StateFileError } from './state-file.js';
/** Reads the saved identity (keys, seed) before the state is built; absent for a new file. */
export function savedIdentity(file) {
    const loaded = readStateFile(file);
    return { loaded, meta: loaded.meta };
}
export class Changes {
    deps;
    /** True while the journal is replayed: events are rebuilt, not sent again. */
    replaying = false;
    pending = new Set();
    file;
    constructor(deps) {
        this.deps = deps;
    }
    /**
     * Loads a state file (already read) into the state and replays its journal
     * through `handlers`; then keeps appending to it. Returns the warnings to print.
     */
    open(file, loaded, handlers) {
        const { partner, v2, clock } = this.deps;
        if (loaded.meta) {
            const { meta, lines } = loaded;
            const snapshot = { ...meta.partner, verifications: [], users: [], log: [] };
            const sessions = [];
            for (const line of lines) {
                if ('v' in line)
                    snapshot.verifications.push(line.v);
                else if ('u' in line)
                    snapshot.users.push(line.u);
                else if ('w' in line)
                    snapshot.log.push(line.w);
                else
                    sessions.push(line.s);
            }
            partner.load(snapshot);
            v2.load(sessions);
            // Building the state drew values; the saved sequence continues from where the snapshot was taken.
            this.deps.random.restore(meta.random);
            clock.offsetMilliseconds = meta.clockOffsetMs;
            for (const id of meta.pending)
                this.pending.add(id);
        }
        this.replaying = true;
        partner.usePublicUrl(loaded.meta?.publicUrl ?? this.deps.publicUrl);
        v2.usePublicUrl(loaded.meta?.publicUrl ?? this.deps.publicUrl);
        try {
            for (const record of loaded.records) {
                if ('eventId' in record)
                    this.deliveryAt(record.t, record.eventId, record.result);
                else
                    this.replay(record.op, record.req, handlers[record.op], record.t);
            }
        }
        finally {
            this.replaying = false;
            partner.usePublicUrl(this.deps.publicUrl);
            v2.usePublicUrl(this.deps.publicUrl);
        }
        this.file = new StateFile(file, loaded.validBytes, () => this.snapshot());
        // A new file gets its first snapshot now (keys and seed included); a
        // replayed journal is folded into one so the next start is quick.
        if (!loaded.meta || loaded.records.length > 0)
            this.file.compact();
        return loaded.warnings;
    }
    /**
     * Runs a request's handler at one instant. A change that answered 2xx is
     * journaled; its answer is then returned only once it is on disk.
     */
    apply(op, write, req, handle) {
        const t = this.deps.clock.now().getTime();
        const answer = this.run(op, req, handle, t);
        if (!write || !this.file || answer[0] >= 300)
            return answer;
        return this.file.append({ t, op, req }).then(() => answer);
    }
    /** A webhook emitted now; it stays pending until delivered with success. */
    emitted(eventId) {
        if (this.deps.partner.webhookTarget() !== undefined)
            this.pending.add(eventId);
    }
    /** The outcome of a delivery attempt, journaled (nobody waits for it). */
    delivered(eventId, result) {
        const t = this.deps.clock.now().getTime();
        this.deliveryAt(t, eventId, result);
        this.file?.append({ t, op: 'delivery', eventId, result }).catch(() => undefined);
    }
    /** Events whose delivery a restart must resume. */
    pendingEvents() {
        return [...this.pending];
    }
    close() {
        this.file?.close();
        this.file = undefined;
    }
    /** A journaled change again; one that no longer succeeds would mean the replay diverged. */
    replay(op, req, handle, t) {
        if (!handle)
            throw new StateFileError(`the state file names an operation this sandbox does not have: ${op}`);
        this.run(op, req, handle, t);
    }
    run(op, req, handle, t) {
        const { clock, partner } = this.deps;
        return clock.at(() => {
            // Time does its work before every request, so a replay expires the
            // same sessions at the same point of the random sequence.
            partner.expireDue();
            const answer = handle(req);
            if (op === 'sandbox.resetSandbox' && answer[0] < 300)
                this.pending.clear();
            return answer;
        }, t);
    }
    deliveryAt(t, eventId, result) {
        this.deps.clock.at(() => {
            this.deps.partner.expireDue();
            this.deps.partner.recordDelivery(eventId, result);
        }, t);
        if (result.success)
            this.pending.delete(eventId);
    }
    snapshot() {
        const { partner, v2, clock, random, authKey, accessToken, publicUrl } = this.deps;
        const { verifications, users, log, ...rest } = partner.snapshot();
        const meta = { authKey, accessToken, publicUrl, random: random.state(), clockOffsetMs: clock.offsetMilliseconds, partner: rest, pending: [...this.pending] };
        function* lines() {
            for (const v of verifications)
                yield { v };
            for (const u of users)
                yield { u };
            for (const w of log)
                yield { w };
            for (const s of v2.saved())
                yield { s };
        }
        return { meta, lines: lines() };
    }
}
