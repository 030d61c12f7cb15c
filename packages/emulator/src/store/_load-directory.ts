import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirError } from './data-dir-errors';
import { type JournalEntry, type PersistedState, replayJournal } from './persistence';

/** The snapshot's file name in the data dir. */
export const SNAPSHOT = 'state.json';
/** Journal file names; the number is the generation. */
export const JOURNAL_NAME = /^journal-(\d+)\.ndjson$/;

/** A snapshot as written. */
export interface SnapshotFile extends PersistedState {
  format: 'parley-emulator-state';
  version: 1;
  /** Journals from this generation on are newer than the snapshot. */
  journal_generation: number;
}

/**
 * Reads the snapshot and replays newer journals. A line that does not parse (a kill mid-append,
 * or a failed append on a full disk) was never answered, so it is skipped.
 */
export function loadDirectory(dir: string): {
  persisted: PersistedState | undefined;
  lastGeneration: number;
} {
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
  const names = readdirSync(dir);
  try {
    for (const name of names) if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  } catch (error) {
    throw DataDirError.from(dir, error);
  }
  const journals = names
    .map((name) => Number(JOURNAL_NAME.exec(name)?.[1] ?? Number.NaN))
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
      let entries: JournalEntry[];
      try {
        entries = JSON.parse(line) as JournalEntry[];
      } catch {
        continue;
      }
      replayJournal(state, entries);
    }
  }
  return { persisted: { state, clock }, lastGeneration };
}
