// The --state file (S21), one JSON value per line: a snapshot (header, one
// line per record, end line) written whole to a temp file, fsynced and
// renamed over the file, then journal lines, each fsynced before its change
// is acknowledged (concurrent changes share one fsync). A crash can only
// tear the last line, which loading drops with a warning. What the lines
// hold is effect-journal.ts's.
import fs from 'node:fs';
import path from 'node:path';

const STATE_FORMAT = 'verification-contracts-sandbox-state';
// Version 3 journals effects (whole records). Versions 1 and 2 journaled
// requests for replay, which this sandbox cannot do: refused with what to do.
const STATE_VERSION = 3;

export interface LoadedStateFile<Meta, Line, Record> {
  /** Absent for a new (missing or empty) file. */
  meta?: Meta;
  /** The snapshot's record lines, in order. */
  lines: Line[];
  /** Journal records after the snapshot, in order. */
  records: Record[];
  warnings: string[];
  /** Bytes of the file that hold whole lines. */
  validBytes: number;
}

export class StateFileError extends Error {}

/** Reads a state file; refuses (StateFileError) anything but a torn last line. */
export function readStateFile<Meta, Line, Record>(file: string): LoadedStateFile<Meta, Line, Record> {
  const loaded: LoadedStateFile<Meta, Line, Record> = { lines: [], records: [], warnings: [], validBytes: 0 };
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return loaded;
    throw new StateFileError(`cannot read the state file ${file}: ${(err as Error).message}`);
  }
  if (data.length === 0) return loaded;
  const notOurs = () => new StateFileError(`${file} is not a sandbox state file; choose another --state path`);
  let phase: 'header' | 'snapshot' | 'journal' = 'header';
  for (let start = 0, lineNo = 1; start < data.length; lineNo++) {
    const end = data.indexOf(10, start);
    let value: any;
    try {
      if (end === -1) throw new Error('no line end');
      value = JSON.parse(data.toString('utf8', start, end));
    } catch (err) {
      if (phase === 'header') throw notOurs();
      if (phase === 'journal' && (end === -1 || end === data.length - 1)) {
        loaded.warnings.push(
          `state file ${file}: ignored a torn last record (line ${lineNo}, ${data.length - start} bytes): the change it held was never acknowledged`,
        );
        break;
      }
      throw new StateFileError(
        `state file ${file} is damaged at line ${lineNo} (${(err as Error).message}); restore it from a copy or delete it to start empty`,
      );
    }
    if (phase === 'header') {
      if (value?.format !== STATE_FORMAT) throw notOurs();
      if (value.version !== STATE_VERSION) {
        const older =
          typeof value.version === 'number' && value.version < STATE_VERSION
            ? ', written by an older sandbox that journaled requests instead of their effects'
            : '';
        throw new StateFileError(
          `state file ${file} has version ${value.version}${older}; this sandbox reads version ${STATE_VERSION} only: delete the file to start empty, or choose another --state path`,
        );
      }
      loaded.meta = value.meta;
      phase = 'snapshot';
    } else if (phase === 'snapshot') {
      if (value?.end === true) phase = 'journal';
      else loaded.lines.push(value);
    } else {
      loaded.records.push(value);
    }
    start = end + 1;
    loaded.validBytes = start;
  }
  if (phase !== 'journal')
    throw new StateFileError(
      `state file ${file} ends inside its snapshot; restore it from a copy or delete it to start empty`,
    );
  return loaded;
}

export class StateFile {
  private fd: number;
  private buffered: string[] = [];
  private waiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private flushing = false;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private closed = false;

  /** `validBytes`: what loading kept; a torn tail beyond it is cut off before appending. */
  constructor(
    private readonly file: string,
    validBytes: number,
    /** Writes the current state as snapshot lines; used to compact. */
    private readonly snapshot: () => { meta: unknown; lines: Iterable<unknown> },
  ) {
    // `--state .sandbox/state.jsonl` in a fresh checkout: the folder is made, as the file is.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o600);
    ownerOnly(this.fd, file);
    if (fs.fstatSync(this.fd).size > validBytes) {
      fs.ftruncateSync(this.fd, validBytes);
      fs.fsyncSync(this.fd);
    }
    this.snapshotBytes = validBytes;
  }

  /** Resolves once the record is on disk (fsynced). */
  append(record: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the state file is closed'));
    this.buffered.push(`${JSON.stringify(record)}\n`);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.flushing) {
      this.flushing = true;
      // Every change made in this turn of the event loop joins the same write and fsync.
      setImmediate(() => this.flush());
    }
    return done;
  }

  /**
   * Replaces the file with a snapshot of the state now (temp file, fsync,
   * rename, fsync of the folder). It holds every change made so far, so
   * lines still waiting for their fsync are dropped and acknowledged.
   */
  compact(): void {
    const { meta, lines } = this.snapshot();
    const temp = `${this.file}.${process.pid}.tmp`;
    const fd = fs.openSync(temp, 'w', 0o600);
    let bytes = 0;
    let chunk = '';
    const write = (value: unknown) => {
      chunk += `${JSON.stringify(value)}\n`;
      if (chunk.length > 1 << 20) {
        bytes += fs.writeSync(fd, chunk);
        chunk = '';
      }
    };
    try {
      write({ format: STATE_FORMAT, version: STATE_VERSION, meta });
      for (const line of lines) write(line);
      write({ end: true });
      bytes += fs.writeSync(fd, chunk);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, this.file);
    syncFolder(path.dirname(this.file));
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, fs.constants.O_RDWR | fs.constants.O_APPEND);
    this.snapshotBytes = bytes;
    this.journalBytes = 0;
    this.buffered = [];
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  /** Writes what is pending, compacts, and closes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.compact();
    fs.closeSync(this.fd);
  }

  private flush(): void {
    this.flushing = false;
    if (this.closed || this.buffered.length === 0) return;
    const lines = this.buffered.join('');
    const waiters = this.waiters;
    this.buffered = [];
    this.waiters = [];
    // Synchronously: a sync of one small append takes less than the hand-off
    // to libuv's thread pool and back, which on a busy machine waits for a
    // time slice; requests that arrive meanwhile form the next group.
    try {
      this.journalBytes += fs.writeSync(this.fd, lines);
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      for (const w of waiters)
        w.reject(new Error(`the change could not be saved to the state file: ${(err as Error).message}`));
      return;
    }
    for (const w of waiters) w.resolve();
    // Compacting when the journal outgrows the snapshot keeps the file (and a
    // restart's loading) proportional to the state, at O(1) amortized per change.
    if (this.journalBytes > Math.max(this.snapshotBytes, 4 << 20)) this.compact();
  }
}

/**
 * Makes the file readable and writable by its owner only, as a new one is
 * made: it holds the auth keys and access tokens, and an existing file
 * (copied, or made by another tool with the usual 0644) would otherwise
 * show them to every user of the machine until the next compaction.
 */
function ownerOnly(fd: number, file: string): void {
  try {
    fs.fchmodSync(fd, 0o600);
  } catch (err) {
    fs.closeSync(fd);
    throw new StateFileError(
      `cannot make the state file ${file} readable by its owner only (${(err as Error).message}): it holds the sandbox's keys; give it to this user (chown) or choose another --state path`,
    );
  }
}

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
