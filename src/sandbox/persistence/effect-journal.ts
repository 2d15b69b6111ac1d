// How the sandbox keeps its state across restarts with --state
// (S21): each change appends what it wrote, the records it touched (whole,
// as they are after it) and the clock's offset, and its answer is sent only
// once that line is on disk. A restart loads the last snapshot and applies
// the lines after it, in order; nothing is run again. A reset writes a new
// snapshot instead of a line.
import { beyondDateTimes, type SandboxClock } from '../common/clock.js';
import type { StoredUser, StoredVerification, WebhookEntry } from '../partner/records.js';
import {
  addVerification,
  loadStore,
  noEffects,
  putWebhook,
  type PartnerHead,
  type PartnerStore,
} from '../partner/store.js';
import { readStateFile, StateFile, StateFileError } from './state-file.js';
import type { V2State, V2Verification } from '../v2/state.js';

/** What the header line of a snapshot holds besides the records. */
export interface StateMeta {
  authKey: string;
  accessToken: string;
  clockOffsetMs: number;
  head: PartnerHead;
}
type SnapshotLine =
  | { verification: StoredVerification }
  | { user: StoredUser }
  | { webhook: WebhookEntry }
  | { session: V2Verification };
/** One change: the records it touched, whole, and the clock's offset after it. */
interface EffectLine {
  clockOffsetMs: number;
  head?: PartnerHead;
  verifications?: StoredVerification[];
  users?: StoredUser[];
  removedUsers?: string[];
  webhooks?: WebhookEntry[];
  sessions?: V2Verification[];
}

/** Reads a state file before the state is built (its saved keys win); `meta` is absent for a new file. */
export function readSavedState(file: string) {
  return readStateFile<StateMeta, SnapshotLine, EffectLine>(file);
}

export interface JournalDeps {
  clock: SandboxClock;
  partner: PartnerStore;
  v2: V2State;
  authKey: string;
  accessToken: string;
}

export class EffectJournal {
  private readonly file: StateFile;
  private savedOffsetMs = 0;

  /** Loads what `loaded` holds into the state, then appends to `path`; `warnings` are loading's (a torn last line). */
  constructor(
    private readonly deps: JournalDeps,
    path: string,
    loaded: ReturnType<typeof readSavedState>,
  ) {
    const { partner, v2, clock } = deps;
    if (loaded.meta) {
      const { meta } = loaded;
      loadStore(partner, meta.head);
      v2.load([], true);
      for (const line of loaded.lines) {
        if ('verification' in line) addVerification(partner, line.verification);
        else if ('user' in line) partner.users.set(line.user.id, line.user);
        else if ('webhook' in line) putWebhook(partner, line.webhook);
        else v2.load([line.session]);
      }
      clock.offsetMs = meta.clockOffsetMs;
      for (const line of loaded.records) this.apply(line);
      const beyond = beyondDateTimes(clock.nowMs());
      if (beyond)
        throw new StateFileError(
          `${path}: its clock runs ${clock.offsetMinutes} minutes ahead, so ${beyond}. Start with a new state file (or delete this one)`,
        );
    }
    this.takeEffects();
    this.file = new StateFile(path, loaded.validBytes, () => this.snapshot());
    // A new file gets its first snapshot at once (keys included); the lines
    // loaded are folded into one so the next start is quick.
    if (!loaded.meta || loaded.records.length > 0) this.file.compact();
  }

  /**
   * Appends what changed since the last call; resolves to `answer` once it
   * is on disk (at once when nothing changed). A delivery's outcome is
   * saved the same way, with nobody waiting for it.
   */
  commit<T>(answer: T): T | Promise<T> {
    const { partner, v2, clock } = this.deps;
    const effects = partner.effects!;
    const sessions = v2.effects!;
    if (effects.reset || sessions.reset) {
      this.takeEffects();
      this.file.compact();
      return answer;
    }
    const line: EffectLine = { clockOffsetMs: clock.offsetMs };
    if (effects.head) line.head = head(partner);
    if (effects.verifications.size) line.verifications = [...effects.verifications];
    if (effects.users.size) line.users = [...effects.users];
    if (effects.removedUsers.size) line.removedUsers = [...effects.removedUsers];
    if (effects.webhooks.size) line.webhooks = [...effects.webhooks];
    if (sessions.sessions.size) line.sessions = [...sessions.sessions];
    if (Object.keys(line).length === 1 && line.clockOffsetMs === this.savedOffsetMs) return answer;
    const saved = this.file.append(line);
    this.takeEffects();
    return saved.then(() => answer);
  }

  close(): void {
    this.file.close();
  }

  private takeEffects(): void {
    this.deps.partner.effects = noEffects();
    this.deps.v2.effects = { sessions: new Set(), reset: false };
    this.savedOffsetMs = this.deps.clock.offsetMs;
  }

  private apply(line: EffectLine): void {
    const { partner, v2, clock } = this.deps;
    if (line.head) Object.assign(partner, head(line.head));
    for (const v of line.verifications ?? []) addVerification(partner, v);
    for (const u of line.users ?? []) partner.users.set(u.id, u);
    for (const id of line.removedUsers ?? []) partner.users.delete(id);
    for (const w of line.webhooks ?? []) putWebhook(partner, w);
    v2.load(line.sessions ?? []);
    clock.offsetMs = line.clockOffsetMs;
  }

  private snapshot(): { meta: StateMeta; lines: Iterable<SnapshotLine> } {
    const { partner, v2, clock, authKey, accessToken } = this.deps;
    const meta: StateMeta = { authKey, accessToken, clockOffsetMs: clock.offsetMs, head: head(partner) };
    function* lines(): Iterable<SnapshotLine> {
      for (const verification of partner.verifications.values()) yield { verification };
      for (const user of partner.users.values()) yield { user };
      for (const webhook of partner.webhooks.values()) yield { webhook };
      for (const session of v2.saved()) yield { session };
    }
    return { meta, lines: lines() };
  }
}

/** The partner's head fields alone (an absent webhookUrl stays absent). */
const head = ({ webhookUrl, partner, authKeys, nameTurn }: PartnerHead): PartnerHead => ({
  webhookUrl,
  partner,
  authKeys,
  nameTurn,
});
