// The --state file (S21): one JSON document of the whole state, written anew (temp file, fsync, rename) after each turn
// that changed it and before that turn's changes are answered, so a crash leaves the old file or the new one.
import fs from 'node:fs';
import path from 'node:path';
import { beyondDateTimes, type SandboxClock } from '../common/clock.js';
import { addVerification, loadStore, putWebhook, type PartnerHead, type PartnerStore } from '../partner/store.js';
import type { V2State } from '../v2/state.js';

const STATE_FORMAT = 'verification-contracts-sandbox-state';
// Versions 1 to 4 (a header or the whole state, then a line per record or
// change) are refused with what to do.
const STATE_VERSION = 5;

/** Every record, the clock's offset, and the credentials the sandbox started with (a reset returns to this key). */
function savedState({ partner, v2, clock, authKey, accessToken }: StateDeps) {
  const { webhookUrl, authKeys, nameTurn } = partner;
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    authKey,
    accessToken,
    clockOffsetMs: clock.offsetMs,
    head: { webhookUrl, partner: partner.partner, authKeys, nameTurn } satisfies PartnerHead,
    verifications: [...partner.verifications.values()],
    users: [...partner.users.values()],
    webhooks: [...partner.webhooks.values()],
    sessions: v2.saved(),
  };
}
type SavedState = ReturnType<typeof savedState>;

const parsed = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Reads a state file before the state is built (its saved keys win); undefined for a new (missing or empty) file. */
export function readStateFile(file: string): SavedState | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the state file ${file}: ${(err as Error).message}`);
  }
  if (text === '') return undefined;
  // An older version's first line names its version, where the file as a whole is no JSON.
  const value = parsed(text) ?? parsed(text.slice(0, text.indexOf('\n')));
  if (value?.format !== STATE_FORMAT)
    throw new Error(
      `${file} is not a sandbox state file, or is damaged; restore it from a copy, delete it to start empty, or choose another --state path`,
    );
  if (value.version !== STATE_VERSION) {
    const numbered = typeof value.version === 'number';
    const older = numbered && value.version < STATE_VERSION;
    const newer = numbered && value.version > STATE_VERSION;
    const fix = newer ? 'a newer package wrote it: upgrade this one to keep it' : 'delete the file to start empty';
    throw new Error(
      `state file ${file} has version ${JSON.stringify(value.version)}${older ? ', written by an older sandbox in another format' : ''}; this sandbox reads version ${STATE_VERSION} only: ${fix}, or choose another --state path`,
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
  /** The text on disk now: a turn whose state serializes to it changed nothing. */
  private written = '';
  private waiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private closed = false;

  /** Loads `saved` into the state, then writes the whole state to the file (made, with its folders, when new). */
  constructor(
    private readonly file: string,
    private readonly deps: StateDeps,
    saved: SavedState | undefined,
  ) {
    const { partner, v2, clock } = deps;
    if (saved) {
      loadStore(partner, saved.head);
      for (const v of saved.verifications) addVerification(partner, v);
      for (const u of saved.users) partner.users.set(u.id, u);
      for (const w of saved.webhooks) putWebhook(partner, w);
      v2.load(saved.sessions);
      clock.offsetMs = saved.clockOffsetMs;
      const beyond = beyondDateTimes(clock.nowMs());
      if (beyond)
        throw new Error(
          `${file}: its clock runs ${clock.offsetMs / 60_000} minutes ahead, so ${beyond}. Start with a new state file (or delete this one)`,
        );
    }
    // `--state .sandbox/state.json` in a fresh checkout: the folder is made, as the file is.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // At once: a new file holds the keys from the start, and an existing one becomes readable by its owner only.
    this.write();
  }

  /**
   * Resolves to `answer` once its state is on disk; delivery results save alike. A read that `changed` nothing
   * answers at once, unless a write is under way, so it never shows a change not yet on disk.
   */
  commit<T>(answer: T, changed = true): T | Promise<T> {
    if (this.closed || (!changed && this.waiters.length === 0)) return answer;
    // Every change made in this turn of the event loop joins the same write.
    if (this.waiters.length === 0) setImmediate(() => this.flush());
    return new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject })).then(() => answer);
  }

  /** Writes the whole state (changes made in code included); nothing is written after. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
  }

  private flush(): void {
    const waiters = this.waiters.splice(0);
    if (this.closed) return;
    try {
      this.write();
    } catch (err) {
      for (const w of waiters)
        w.reject(new Error(`the change could not be saved to the state file: ${(err as Error).message}`));
      return;
    }
    for (const w of waiters) w.resolve();
  }

  private text(): string {
    return `${JSON.stringify(savedState(this.deps))}\n`;
  }

  /** The whole state, written synchronously (S24): temp file, fsync, rename, fsync of the folder. */
  private write(): void {
    const text = this.text();
    // A turn whose requests changed nothing after all (a POST refused by the engine) writes nothing.
    if (text === this.written) return;
    // It holds the auth keys and access tokens: readable by its owner only.
    const temp = `${this.file}.tmp`;
    fs.writeFileSync(temp, text, { mode: 0o600, flush: true });
    fs.renameSync(temp, this.file);
    syncFolder(path.dirname(this.file));
    this.written = text;
  }
}

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
