// How the sandbox keeps its state across restarts with --state (DECISIONS
// S21): every change that answered 2xx is journaled as the request that made
// it, with the instant it happened at, and acknowledged only once on disk.
// A restart loads the last snapshot and replays the journal through the same
// handlers, at the same instants and with the same random draws (the seeded
// generator in ../common/random.ts), so it rebuilds exactly the state that was
// acknowledged. Without --state the same wrapper only stops the clock for
// the length of a request.
import type { AnswerCache, CachedAnswer } from '../common/answer-cache.js';
import { beyondDateTimes, type SandboxClock } from '../common/clock.js';
import type { ParsedRequest } from '../../contract/routes.js';
import type { DeliveryResult } from '../partner/control.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handler } from '../operations/partner.js';
import type { StoredUser, StoredVerification } from '../partner/records.js';
import type { PartnerSnapshot, PartnerState } from '../partner/state.js';
import type { WebhookLogEntry } from '../partner/webhook-log.js';
import type { RandomState, SandboxRandom } from '../common/random.js';
import { readStateFile, StateFile, StateFileError } from './state-file.js';
import type { V2State, V2Verification } from '../v2/state.js';

/** What the header line of a snapshot holds besides the records. */
export interface StateMeta {
  authKey: string;
  accessToken: string;
  /** The address of the process that wrote the snapshot and the journal after it (verification urls carry it). */
  publicUrl: string;
  random: RandomState;
  clockOffsetMs: number;
  partner: Omit<PartnerSnapshot, 'verifications' | 'users' | 'log'>;
  /** Webhooks not yet delivered with success (delivery resumes after a restart). */
  pending: string[];
}
type SnapshotLine = { v: StoredVerification } | { u: StoredUser } | { w: WebhookLogEntry } | { s: V2Verification };
type JournalRecord = { t: number; op: string; req: ParsedRequest } | { t: number; op: 'delivery'; eventId: string; result: DeliveryResult };

/** Reads the saved identity (keys, seed) before the state is built; absent for a new file. */
export function savedIdentity(file: string) {
  const loaded = readStateFile<StateMeta, SnapshotLine, JournalRecord>(file);
  return { loaded, meta: loaded.meta };
}

export interface PersistenceDeps {
  clock: SandboxClock;
  random: SandboxRandom;
  partner: PartnerState;
  v2: V2State;
  authKey: string;
  accessToken: string;
  publicUrl: string;
  /** Emptied on every change (answer-cache.ts). */
  cache: AnswerCache;
}

export class Changes {
  /** True while the journal is replayed: events are rebuilt, not sent again. */
  replaying = false;
  private readonly pending = new Set<string>();
  private file?: StateFile;

  constructor(private readonly deps: PersistenceDeps) {}

  /**
   * Loads a state file (already read) into the state and replays its journal
   * through `handlers`; then keeps appending to it. Returns the warnings to print.
   */
  open(file: string, loaded: ReturnType<typeof savedIdentity>['loaded'], handlers: Record<string, Handler>): string[] {
    const { partner, v2, clock } = this.deps;
    if (loaded.meta) {
      const { meta, lines } = loaded;
      const snapshot: PartnerSnapshot = { ...meta.partner, verifications: [], users: [], log: [] };
      const sessions: V2Verification[] = [];
      for (const line of lines) {
        if ('v' in line) snapshot.verifications.push(line.v);
        else if ('u' in line) snapshot.users.push(line.u);
        else if ('w' in line) (snapshot.log as WebhookLogEntry[]).push(line.w);
        else sessions.push(line.s);
      }
      partner.load(snapshot);
      v2.load(sessions);
      // Building the state drew values; the saved sequence continues from where the snapshot was taken.
      this.deps.random.restore(meta.random);
      clock.offsetMilliseconds = meta.clockOffsetMs;
      const beyond = beyondDateTimes(clock.nowMs());
      if (beyond) throw new StateFileError(`${file}: its clock runs ${meta.clockOffsetMs / 60_000} minutes ahead, so ${beyond}. Start with a new state file (or delete this one)`);
      for (const id of meta.pending) this.pending.add(id);
    }
    this.replaying = true;
    partner.usePublicUrl(loaded.meta?.publicUrl ?? this.deps.publicUrl);
    v2.usePublicUrl(loaded.meta?.publicUrl ?? this.deps.publicUrl);
    try {
      for (const record of loaded.records) {
        if ('eventId' in record) this.deliveryAt(record.t, record.eventId, record.result);
        else this.replay(record.op, record.req, handlers[record.op], record.t);
      }
    } finally {
      this.replaying = false;
      partner.usePublicUrl(this.deps.publicUrl);
      v2.usePublicUrl(this.deps.publicUrl);
      this.deps.cache.invalidate();
    }
    this.file = new StateFile(file, loaded.validBytes, () => this.snapshot());
    // A new file gets its first snapshot now (keys and seed included); a
    // replayed journal is folded into one so the next start is quick.
    if (!loaded.meta || loaded.records.length > 0) this.file.compact();
    return loaded.warnings;
  }

  /**
   * Runs a request's handler at one instant. A change that answered 2xx is
   * journaled; its answer is then returned only once it is on disk.
   */
  apply(op: string, write: boolean, req: ParsedRequest, handle: Handler): [number, unknown] | Promise<[number, unknown]> {
    const t = this.deps.clock.nowMs();
    const answer = this.run(op, write, req, handle, t);
    if (!write || !this.file || answer[0] >= 300) return answer;
    return this.file.append({ t, op, req }).then(() => answer);
  }

  /** The answer sent before to the same read, when nothing has changed since (time may have expired a session meanwhile). */
  cachedRead(key: object): CachedAnswer | undefined {
    const { clock, cache, partner } = this.deps;
    if (cache.size === 0) return undefined;
    if (partner.nextExpiryMs <= clock.nowMs()) clock.at(() => this.expire());
    return cache.get(key);
  }

  /** A webhook emitted now; it stays pending until delivered with success. */
  emitted(eventId: string): void {
    if (this.deps.partner.webhookTarget() !== undefined) this.pending.add(eventId);
  }

  /** The outcome of a delivery attempt, journaled (nobody waits for it). */
  delivered(eventId: string, result: DeliveryResult): void {
    const t = this.deps.clock.now().getTime();
    this.deliveryAt(t, eventId, result);
    this.file?.append({ t, op: 'delivery', eventId, result }).catch(() => undefined);
  }

  /** Events whose delivery a restart must resume. */
  pendingEvents(): string[] {
    return [...this.pending];
  }

  close(): void {
    this.file?.close();
    this.file = undefined;
  }

  /** A journaled change again; one that no longer succeeds would mean the replay diverged. */
  private replay(op: string, req: ParsedRequest, handle: Handler | undefined, t: number): void {
    if (!handle) throw new StateFileError(`the state file names an operation this sandbox does not have: ${op}`);
    try {
      this.run(op, true, req, handle, t);
    } catch (err) {
      // A change this sandbox now refuses (a clock move past the date-times, S28) cannot be rebuilt.
      if (err instanceof SandboxError) throw new StateFileError(`the state file's journal holds a change this sandbox refuses (${op}: ${err.message}); start with a new state file (or delete this one)`);
      throw err;
    }
  }

  private run(op: string, write: boolean, req: ParsedRequest, handle: Handler, t: number): [number, unknown] {
    const { clock, cache } = this.deps;
    return clock.at(() => {
      // Time does its work before every request, so a replay expires the
      // same sessions at the same point of the random sequence.
      this.expire();
      try {
        const answer = handle(req);
        if (op === 'sandbox.resetSandbox' && answer[0] < 300) this.pending.clear();
        return answer;
      } finally {
        if (write) cache.invalidate();
      }
    }, t);
  }

  private expire(): void {
    if (this.deps.partner.expireDue() > 0) this.deps.cache.invalidate();
  }

  private deliveryAt(t: number, eventId: string, result: DeliveryResult): void {
    this.deps.clock.at(() => {
      this.expire();
      this.deps.partner.recordDelivery(eventId, result);
    }, t);
    this.deps.cache.invalidate();
    if (result.success) this.pending.delete(eventId);
  }

  private snapshot(): { meta: StateMeta; lines: Iterable<SnapshotLine> } {
    const { partner, v2, clock, random, authKey, accessToken, publicUrl } = this.deps;
    const { verifications, users, log, ...rest } = partner.snapshot();
    const meta: StateMeta = { authKey, accessToken, publicUrl, random: random.state(), clockOffsetMs: clock.offsetMilliseconds, partner: rest, pending: [...this.pending] };
    function* lines(): Iterable<SnapshotLine> {
      for (const v of verifications) yield { v };
      for (const u of users) yield { u };
      for (const w of log) yield { w };
      for (const s of v2.saved()) yield { s };
    }
    return { meta, lines: lines() };
  }
}
