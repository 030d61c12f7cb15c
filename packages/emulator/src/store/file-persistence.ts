import { randomBytes } from 'node:crypto';
import { ftruncateSync, readdirSync, writeSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createDataDir } from './_create-data-dir';
import { MAX_DATA_FILE_BYTES } from './_data-file';
import { DATA_FILE_MODE, JournalFile, type TruncateFile, type WriteBytes } from './_journal-file';
import { encodeJournalLine } from './_journal-line';
import { JOURNAL_NAME, journalPath, loadDirectory } from './_load-directory';
import { encodeSnapshot, SNAPSHOT } from './_snapshot-file';
import { syncDirectory } from './_sync-directory';
import { DataDirError, describeWriteFailure, errnoCode, PersistenceError } from './data-dir-errors';
import type { PersistedState, Persistence, PersistenceHealth } from './persistence';

const SNAPSHOT_DELAY_MS = 200;

/** The disk writes of {@link filePersistence}; tests swap them to simulate a full disk or short writes. */
export interface DiskWrites {
  /** Journal appends, as `fs.writeSync`: may write fewer bytes than asked, or throw. */
  write: WriteBytes;
  /** A snapshot's whole text into its temporary file. */
  writeFile: (file: FileHandle, text: string) => Promise<void>;
  /** Cuts a journal back after a failed append (default `fs.ftruncateSync`). */
  truncate?: TruncateFile;
}

const NODE_DISK: DiskWrites = { write: writeSync, writeFile: (file, text) => file.writeFile(text) };

/** What a file too large for the loader to read back fails with: never acknowledged, never written. */
const tooLarge = (what: string) =>
  Object.assign(
    new Error(`${what} would pass the ${MAX_DATA_FILE_BYTES / 1024 / 1024} MiB a data file may hold`),
    {
      code: 'EFBIG',
    },
  );

/**
 * `--data-dir` persistence: a write-ahead journal plus coalesced snapshots.
 *
 * Why both: a 202 promises the message exists, so each accepted send is appended to the journal
 * and fdatasync'ed before the answer and before the state in memory changes (one small write,
 * not the whole state); everything else (deliveries' attempts) lands in a snapshot at most
 * 200 ms later. A snapshot is written to a temporary file, fsync'ed and renamed over the old one,
 * so a kill at any moment leaves either the old or the new snapshot, plus journals whose torn
 * last line is ignored on load. Journals are deleted only once a newer snapshot has landed. Each
 * journal line carries a checksum and the snapshot one over all of it, so damage is refused at
 * the next start instead of read as data; no file grows past {@link MAX_DATA_FILE_BYTES}, the
 * most the loader reads (a journal that would passes on to the next generation).
 *
 * A failed write (full disk) throws {@link PersistenceError} and is reported once on stderr and in
 * `health()`, until a later write succeeds. The directory is created 0700 and its files 0600.
 */
export function filePersistence(options: {
  dataDir?: string;
  disk?: DiskWrites;
  /** For tests: a smaller bound than {@link MAX_DATA_FILE_BYTES} on each file written. */
  maxFileBytes?: number;
}): Persistence {
  const dir = options.dataDir!;
  const disk = options.disk ?? NODE_DISK;
  const maxFileBytes = Math.min(options.maxFileBytes ?? MAX_DATA_FILE_BYTES, MAX_DATA_FILE_BYTES);
  createDataDir(dir);
  let generation = 0;
  let journal: JournalFile | undefined;
  let source: (() => PersistedState) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;
  const failures = failureLog(dir);

  /** Opens the next journal before closing the current one: a failed open keeps the current. */
  const openJournal = (next: number): void => {
    const opened = new JournalFile(journalPath(dir, next), disk.write, disk.truncate ?? ftruncateSync);
    journal?.close();
    journal = opened;
    generation = next;
  };

  const writerId = randomBytes(4).toString('hex');
  const writeSnapshot = async (): Promise<void> => {
    if (!source) return;
    const journalGeneration = generation + 1;
    // Captured and switched in one synchronous step: every later journal line is newer.
    const text = encodeSnapshot(journalGeneration, source());
    // One name per writer, not per process: two emulators of one process on one dir (a test's
    // restart beside the "killed" run) must not remove or rename each other's temporary file.
    const temporary = join(dir, `${SNAPSHOT}.${process.pid}.${writerId}.tmp`);
    try {
      if (Buffer.byteLength(text) > maxFileBytes) throw tooLarge('the snapshot');
      if (!closed) openJournal(journalGeneration);
      const file = await open(temporary, 'w', DATA_FILE_MODE);
      try {
        await disk.writeFile(file, text);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, join(dir, SNAPSHOT));
    } catch (error) {
      // The previous snapshot and every journal stay as they were: nothing is lost, only not compacted.
      await rm(temporary, { force: true }).catch(() => {});
      throw failures.failed('snapshot', error);
    }
    failures.succeeded('snapshot');
    syncDirectory(dir);
    for (const name of readdirSync(dir)) {
      const match = JOURNAL_NAME.exec(name);
      // Best effort: an old journal left behind is only replayed over a newer snapshot, harmlessly.
      if (match && Number(match[1]) < journalGeneration)
        await rm(join(dir, name), { force: true }).catch(() => {});
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(writeSnapshot, writeSnapshot);
    return writing;
  };

  return {
    load() {
      const loaded = loadDirectory(dir);
      try {
        openJournal(loaded.lastGeneration + 1);
      } catch (error) {
        throw DataDirError.from(dir, error);
      }
      return loaded.persisted;
    },
    attach(next) {
      source = next;
    },
    journal(entries) {
      const line = encodeJournalLine(entries);
      const bytes = Buffer.byteLength(line) + 1;
      try {
        if (bytes > maxFileBytes) throw tooLarge('a journal line');
        if (!journal || (journal.length > 0 && journal.length + bytes > maxFileBytes)) {
          openJournal(generation + 1);
        }
        journal!.append(line);
      } catch (error) {
        // Its torn bytes stay the last of that file: later lines go to the next journal.
        if (journal?.spoiled) {
          journal.close();
          journal = undefined;
        }
        throw failures.failed('journal', error);
      }
      failures.succeeded('journal');
    },
    changed() {
      if (timer || closed) return;
      // A disk failure is reported (once) by the failure log, and the next change tries again.
      timer = setTimeout(() => void flush().catch(reportUnexpected), SNAPSHOT_DELAY_MS);
      timer.unref?.();
    },
    flush,
    health: () => failures.health(),
    async close() {
      try {
        await flush();
      } finally {
        closed = true;
        journal?.close();
        journal = undefined;
      }
    },
  };
}

/**
 * What failed to be written, by kind: one stderr line when a failure starts (or changes) and one
 * when every kind works again, so a full disk is said clearly without a line per request.
 */
function failureLog(dir: string) {
  const current = new Map<'journal' | 'snapshot', string>();
  return {
    failed(kind: 'journal' | 'snapshot', error: unknown): PersistenceError {
      const problem = describeWriteFailure(dir, error);
      if (current.get(kind) !== problem) {
        console.error(
          `[parley-emulator] persistence failed: ${problem}; changes that need the data dir are refused (500) until it can be written`,
        );
      }
      current.set(kind, problem);
      return new PersistenceError(problem, errnoCode(error));
    },
    succeeded(kind: 'journal' | 'snapshot'): void {
      if (!current.delete(kind) || current.size > 0) return;
      console.error(`[parley-emulator] persistence recovered: ${dir} can be written again`);
    },
    health(): PersistenceHealth {
      const [problem] = current.values();
      return problem === undefined ? { ok: true } : { ok: false, error: problem };
    },
  };
}

function reportUnexpected(error: unknown): void {
  if (!(error instanceof PersistenceError)) {
    console.error('[parley-emulator] could not write the state snapshot:', error);
  }
}
