import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type JournalEntry, type PersistedState, type Persistence, replayJournal } from './persistence';

const SNAPSHOT = 'state.json';
const JOURNAL = /^journal-(\d+)\.ndjson$/;
const SNAPSHOT_DELAY_MS = 200;

interface SnapshotFile extends PersistedState {
  format: 'parley-emulator-state';
  version: 1;
  /** Journals from this generation on are newer than the snapshot. */
  journal_generation: number;
}

/**
 * `--data-dir` persistence: a write-ahead journal plus coalesced snapshots.
 *
 * Why both: a 202 promises the message exists, so each accepted send is appended to the journal
 * and fdatasync'ed before the answer (one small write, not the whole state); everything else
 * (timers' status moves, deliveries' attempts) lands in a snapshot at most 200 ms later. A
 * snapshot is written to a temporary file, fsync'ed and renamed over the old one, so a kill at
 * any moment leaves either the old or the new snapshot, plus journals whose torn last line is
 * ignored on load.
 */
export function filePersistence(options: { dataDir?: string }): Persistence {
  const dir = options.dataDir!;
  mkdirSync(dir, { recursive: true });
  let generation = 0;
  let journalFd: number | undefined;
  let source: (() => PersistedState) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const openJournal = (next: number): void => {
    if (journalFd !== undefined) closeSync(journalFd);
    generation = next;
    journalFd = openSync(join(dir, `journal-${generation}.ndjson`), 'a');
  };

  const writeSnapshot = async (): Promise<void> => {
    if (!source) return;
    const captured = source();
    const journalGeneration = generation + 1;
    const payload: SnapshotFile = {
      format: 'parley-emulator-state',
      version: 1,
      journal_generation: journalGeneration,
      ...captured,
    };
    // Captured and switched in one synchronous step: every later journal line is newer.
    const text = JSON.stringify(payload);
    if (!closed) openJournal(journalGeneration);
    const temporary = join(dir, `${SNAPSHOT}.${process.pid}.tmp`);
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, join(dir, SNAPSHOT));
    syncDirectory(dir);
    for (const name of readdirSync(dir)) {
      const match = JOURNAL.exec(name);
      if (match && Number(match[1]) < journalGeneration) await rm(join(dir, name), { force: true });
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
      openJournal(loaded.lastGeneration + 1);
      return loaded.persisted;
    },
    attach(next) {
      source = next;
    },
    journal(entries) {
      if (journalFd === undefined) openJournal(generation + 1);
      writeSync(journalFd!, `${JSON.stringify(entries)}\n`);
      fdatasyncSync(journalFd!);
    },
    changed() {
      if (timer || closed) return;
      timer = setTimeout(() => void flush().catch(reportFailure), SNAPSHOT_DELAY_MS);
      timer.unref?.();
    },
    flush,
    async close() {
      await flush();
      closed = true;
      if (journalFd !== undefined) closeSync(journalFd);
      journalFd = undefined;
    },
  };
}

function reportFailure(error: unknown): void {
  console.error('[parley-emulator] could not write the state snapshot:', error);
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic.
  }
}

/** Reads the snapshot and replays newer journals; a torn last journal line (a kill mid-write) is skipped. */
function loadDirectory(dir: string): { persisted: PersistedState | undefined; lastGeneration: number } {
  let snapshot: SnapshotFile | undefined;
  try {
    snapshot = JSON.parse(readFileSync(join(dir, SNAPSHOT), 'utf8')) as SnapshotFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${join(dir, SNAPSHOT)} is not a readable emulator state: ${(error as Error).message}`);
    }
  }
  if (snapshot && snapshot.format !== 'parley-emulator-state') {
    throw new Error(`${join(dir, SNAPSHOT)} is not an emulator state file.`);
  }
  for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  const journals = readdirSync(dir)
    .map((name) => Number(JOURNAL.exec(name)?.[1] ?? Number.NaN))
    .filter((found) => !Number.isNaN(found))
    .sort((a, b) => a - b);
  const lastGeneration = journals.at(-1) ?? 0;
  if (!snapshot) return { persisted: undefined, lastGeneration };
  const { state, clock } = snapshot;
  for (const found of journals) {
    if (found < snapshot.journal_generation) continue;
    const lines = readFileSync(join(dir, `journal-${found}.ndjson`), 'utf8').split('\n');
    for (const line of lines) {
      if (line === '') continue;
      try {
        replayJournal(state, JSON.parse(line) as JournalEntry[]);
      } catch {
        // A kill in the middle of an append leaves one torn line at the end: it was never answered.
      }
    }
  }
  return { persisted: { state, clock }, lastGeneration };
}
