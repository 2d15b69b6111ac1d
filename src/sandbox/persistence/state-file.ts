// The --state file (S21), JSON lines: the first holds the whole state, each
// line after it one change, the records the change touched whole as they are
// after it. A change is answered once its line is fsynced; the changes of one
// turn of the event loop share one write and fsync. At every start and clean
// stop, at a reset, and when the changes outgrow the first line, the whole
// state is written anew to a temp file, fsynced and renamed over the file.
// A crash can only tear the last line, which loading drops with a warning.
import fs from 'node:fs';
import path from 'node:path';
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
import type { V2State, V2Verification } from '../v2/state.js';

const STATE_FORMAT = 'verification-contracts-sandbox-state';
// Version 4 opens with the whole state on one line. Versions 1 to 3 opened
// with a header line and a line per record: refused with what to do.
const STATE_VERSION = 4;

/** What one change touched, whole as it is after the change, and the clock's offset. */
interface Change {
  clockOffsetMs: number;
  head?: PartnerHead;
  verifications?: StoredVerification[];
  users?: StoredUser[];
  removedUsers?: string[];
  webhooks?: WebhookEntry[];
  sessions?: V2Verification[];
}

/** The first line: every record, and the credentials the sandbox started with (a reset returns to this key). */
interface WholeState extends Required<Omit<Change, 'removedUsers'>> {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  authKey: string;
  accessToken: string;
}

export interface SavedState {
  whole: WholeState;
  changes: Change[];
  /** A torn last line dropped, for the command to print. */
  warnings: string[];
}

const parsed = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Reads a state file before the state is built (its saved keys win); undefined for a new (missing or empty) file. */
export function readStateFile(file: string): SavedState | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the state file ${file}: ${(err as Error).message}`);
  }
  if (data.length === 0) return undefined;
  let saved: SavedState | undefined;
  for (let start = 0, lineNo = 1; start < data.length; lineNo++) {
    const end = data.indexOf(10, start);
    const value = end === -1 ? undefined : parsed(data.toString('utf8', start, end));
    if (!saved) saved = { whole: wholeState(file, value), changes: [], warnings: [] };
    else if (value !== undefined) saved.changes.push(value);
    else if (end === -1 || end === data.length - 1) {
      saved.warnings.push(
        `state file ${file}: ignored a torn last record (line ${lineNo}, ${data.length - start} bytes): the change it held was never acknowledged`,
      );
      break;
    } else
      throw new Error(
        `state file ${file} is damaged at line ${lineNo}; restore it from a copy or delete it to start empty`,
      );
    start = end + 1;
  }
  return saved;
}

/** The first line, or why the file is refused. */
function wholeState(file: string, value: WholeState | undefined): WholeState {
  if (value?.format !== STATE_FORMAT)
    throw new Error(`${file} is not a sandbox state file; choose another --state path`);
  if (value.version !== STATE_VERSION) {
    const older =
      typeof value.version === 'number' && value.version < STATE_VERSION
        ? ', written by an older sandbox in another format'
        : '';
    throw new Error(
      `state file ${file} has version ${value.version}${older}; this sandbox reads version ${STATE_VERSION} only: delete the file to start empty, or choose another --state path`,
    );
  }
  return value;
}

export interface StateDeps {
  clock: SandboxClock;
  partner: PartnerStore;
  v2: V2State;
  authKey: string;
  accessToken: string;
}

export class StateFile {
  private fd?: number;
  private buffered: string[] = [];
  private waiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private wholeBytes = 0;
  private changeBytes = 0;
  private savedOffsetMs = 0;
  private closed = false;

  /** Loads `saved` into the state, then writes the whole state to the file (made, with its folders, when new). */
  constructor(
    private readonly file: string,
    private readonly deps: StateDeps,
    saved: SavedState | undefined,
  ) {
    const { partner, v2, clock } = deps;
    if (saved) {
      loadStore(partner, saved.whole.head);
      v2.load([], true);
      for (const change of [saved.whole, ...saved.changes]) this.apply(change);
      const beyond = beyondDateTimes(clock.nowMs());
      if (beyond)
        throw new Error(
          `${file}: its clock runs ${clock.offsetMinutes} minutes ahead, so ${beyond}. Start with a new state file (or delete this one)`,
        );
    }
    // `--state .sandbox/state.jsonl` in a fresh checkout: the folder is made, as the file is.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // At once: a new file holds the keys from the start, a torn last line is
    // gone, and an existing file becomes readable by its owner only.
    this.rewrite();
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
      this.rewrite();
      return answer;
    }
    const change: Change = { clockOffsetMs: clock.offsetMs };
    if (effects.head) change.head = head(partner);
    if (effects.verifications.size) change.verifications = [...effects.verifications];
    if (effects.users.size) change.users = [...effects.users];
    if (effects.removedUsers.size) change.removedUsers = [...effects.removedUsers];
    if (effects.webhooks.size) change.webhooks = [...effects.webhooks];
    if (sessions.sessions.size) change.sessions = [...sessions.sessions];
    if (Object.keys(change).length === 1 && change.clockOffsetMs === this.savedOffsetMs) return answer;
    this.takeEffects();
    this.buffered.push(`${JSON.stringify(change)}\n`);
    const saved = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    // Every change made in this turn of the event loop joins the same write and fsync.
    if (this.buffered.length === 1) setImmediate(() => this.flush());
    return saved.then(() => answer);
  }

  /** Writes the whole state (changes made in code included) and closes the file. */
  close(): void {
    if (this.closed) return;
    this.rewrite();
    this.closed = true;
    fs.closeSync(this.fd!);
  }

  private flush(): void {
    if (this.closed || this.buffered.length === 0) return;
    const lines = this.buffered.join('');
    const waiters = this.waiters;
    this.buffered = [];
    this.waiters = [];
    // Synchronously: a sync of one small append takes less than the hand-off
    // to libuv's thread pool and back, which on a busy machine waits for a
    // time slice; requests that arrive meanwhile form the next group (S24).
    try {
      this.changeBytes += fs.writeSync(this.fd!, lines);
      fs.fdatasyncSync(this.fd!);
    } catch (err) {
      for (const w of waiters)
        w.reject(new Error(`the change could not be saved to the state file: ${(err as Error).message}`));
      return;
    }
    for (const w of waiters) w.resolve();
    // Rewriting once the changes outgrow the whole state keeps the file (and
    // a restart) proportional to the state, at O(1) amortized per change.
    if (this.changeBytes > Math.max(this.wholeBytes, 4 << 20)) this.rewrite();
  }

  /**
   * Replaces the file with the whole state now (temp file, fsync, rename,
   * fsync of the folder). It holds every change made so far, so lines still
   * waiting for their fsync are dropped and acknowledged.
   */
  private rewrite(): void {
    const { partner, v2, clock, authKey, accessToken } = this.deps;
    const whole: WholeState = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      authKey,
      accessToken,
      clockOffsetMs: clock.offsetMs,
      head: head(partner),
      verifications: [...partner.verifications.values()],
      users: [...partner.users.values()],
      webhooks: [...partner.webhooks.values()],
      sessions: v2.saved(),
    };
    const text = `${JSON.stringify(whole)}\n`;
    // It holds the auth keys and access tokens: readable by its owner only.
    const temp = `${this.file}.tmp`;
    fs.writeFileSync(temp, text, { mode: 0o600, flush: true });
    fs.renameSync(temp, this.file);
    syncFolder(path.dirname(this.file));
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'a');
    this.wholeBytes = text.length;
    this.changeBytes = 0;
    this.takeEffects();
    this.buffered = [];
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  private takeEffects(): void {
    this.deps.partner.effects = noEffects();
    this.deps.v2.effects = { sessions: new Set(), reset: false };
    this.savedOffsetMs = this.deps.clock.offsetMs;
  }

  private apply(change: Change): void {
    const { partner, v2, clock } = this.deps;
    if (change.head) Object.assign(partner, head(change.head));
    for (const v of change.verifications ?? []) addVerification(partner, v);
    for (const u of change.users ?? []) partner.users.set(u.id, u);
    for (const id of change.removedUsers ?? []) partner.users.delete(id);
    for (const w of change.webhooks ?? []) putWebhook(partner, w);
    v2.load(change.sessions ?? []);
    clock.offsetMs = change.clockOffsetMs;
  }
}

/** The partner's head fields alone (an absent webhookUrl stays absent). */
const head = ({ webhookUrl, partner, authKeys, nameTurn }: PartnerHead): PartnerHead => ({
  webhookUrl,
  partner,
  authKeys,
  nameTurn,
});

/** Makes the rename itself survive a power cut. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a folder; the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
