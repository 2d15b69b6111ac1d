// The --state file (S21): the whole state as one JSON document on one line,
// written after each change and before its answer is sent: to a temp file,
// fsynced, renamed over the file. A rename is atomic, so after a crash the
// file holds the state as of the last write, never part of one. The changes
// made in one turn of the event loop share one write.
import fs from 'node:fs';
import path from 'node:path';
import { beyondDateTimes, type SandboxClock } from '../common/clock.js';
import type { StoredUser, StoredVerification, WebhookEntry } from '../partner/records.js';
import { addVerification, loadStore, putWebhook, type PartnerHead, type PartnerStore } from '../partner/store.js';
import type { V2State, V2Verification } from '../v2/state.js';

const STATE_FORMAT = 'verification-contracts-sandbox-state';
// Version 4 is one document. Versions 1 to 3 were JSON lines (a header, then
// records and changes), which this sandbox does not read: refused with what to do.
const STATE_VERSION = 4;

export interface SavedState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  /** The credentials the sandbox started with (a reset returns to this key). */
  authKey: string;
  accessToken: string;
  clockOffsetMs: number;
  head: PartnerHead;
  verifications: StoredVerification[];
  users: StoredUser[];
  webhooks: WebhookEntry[];
  sessions: V2Verification[];
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
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the state file ${file}: ${(err as Error).message}`);
  }
  if (text === '') return undefined;
  // The first line is the header of the older versions' JSON lines.
  const saved = parsed(text) ?? parsed(text.split('\n', 1)[0]);
  if (saved?.format !== STATE_FORMAT)
    throw new Error(`${file} is not a sandbox state file; choose another --state path`);
  if (saved.version !== STATE_VERSION) {
    const older =
      typeof saved.version === 'number' && saved.version < STATE_VERSION
        ? ', written by an older sandbox in another format'
        : '';
    throw new Error(
      `state file ${file} has version ${saved.version}${older}; this sandbox reads version ${STATE_VERSION} only: delete the file to start empty, or choose another --state path`,
    );
  }
  return saved;
}

export interface StateDeps {
  clock: SandboxClock;
  partner: PartnerStore;
  v2: V2State;
  authKey: string;
  accessToken: string;
}

export class StateFile {
  private savedOffsetMs = 0;
  private queued?: Promise<void>;
  private closed = false;

  /** Loads `saved` into the state, then writes the file (made, with its folders, when new). */
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
          `${file}: its clock runs ${clock.offsetMinutes} minutes ahead, so ${beyond}. Start with a new state file (or delete this one)`,
        );
    }
    // `--state .sandbox/state.jsonl` in a fresh checkout: the folder is made, as the file is.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written at once: a new file holds the keys from the start, and an
    // existing one becomes readable by its owner only, as the temp file is made.
    this.write();
  }

  /** Resolves once every change made so far is on disk; undefined when nothing changed since the last write. */
  save(): Promise<void> | undefined {
    const { partner, v2, clock } = this.deps;
    if (!partner.changed && !v2.changed && clock.offsetMs === this.savedOffsetMs) return undefined;
    this.queued ??= new Promise((resolve, reject) =>
      setImmediate(() => {
        this.queued = undefined;
        try {
          if (!this.closed) this.write();
          resolve();
        } catch (err) {
          reject(new Error(`the change could not be saved to the state file: ${(err as Error).message}`));
        }
      }),
    );
    return this.queued;
  }

  /** Writes the state as it is now (changes made in code included) and stops writing. */
  close(): void {
    this.closed = true;
    this.write();
  }

  private write(): void {
    const { partner, v2, clock, authKey, accessToken } = this.deps;
    const { webhookUrl, nameTurn } = partner;
    const state: SavedState = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      authKey,
      accessToken,
      clockOffsetMs: clock.offsetMs,
      head: { webhookUrl, partner: partner.partner, authKeys: partner.authKeys, nameTurn },
      verifications: [...partner.verifications.values()],
      users: [...partner.users.values()],
      webhooks: [...partner.webhooks.values()],
      sessions: v2.saved(),
    };
    // It holds the auth keys and access tokens: readable by its owner only.
    const temp = `${this.file}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(state)}\n`, { mode: 0o600, flush: true });
    fs.renameSync(temp, this.file);
    syncFolder(path.dirname(this.file));
    partner.changed = false;
    v2.changed = false;
    this.savedOffsetMs = clock.offsetMs;
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
