export declare const STATE_FORMAT = "verification-contracts-sandbox-state";
export declare const STATE_VERSION = 1;
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
export declare class StateFileError extends Error {
}
/** Reads a state file; refuses (StateFileError) anything but a torn last line. */
export declare function readStateFile<Meta, Line, Record>(file: string): LoadedStateFile<Meta, Line, Record>;
export declare class StateFile {
    private readonly file;
    /** Writes the current state as snapshot lines; used to compact. */
    private readonly snapshot;
    private fd;
    private buffered;
    private waiters;
    private flushing;
    private journalBytes;
    private snapshotBytes;
    private closed;
    /** `validBytes`: what loading kept; a torn tail beyond it is cut off before appending. */
    constructor(file: string, validBytes: number, 
    /** Writes the current state as snapshot lines; used to compact. */
    snapshot: () => {
        meta: unknown;
        lines: Iterable<unknown>;
    });
    /** Resolves once the record is on disk (fsynced). */
    append(record: unknown): Promise<void>;
    /** Replaces the file with a snapshot of the state now: temp file, fsync, rename, fsync of the folder. */
    compact(): void;
    /** Writes what is pending, compacts, and closes. */
    close(): void;
    private flush;
    private settle;
}
