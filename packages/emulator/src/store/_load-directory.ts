import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJournal } from './_read-journal';
import { readSnapshot } from './_snapshot-file';
import { DamagedDataError, DataDirError } from './data-dir-errors';
import { type PersistedState, replayJournal } from './persistence';
import { hydrateState } from './state';

export { SNAPSHOT, type SnapshotFile } from './_snapshot-file';

/** Journal file names; the number is the generation. */
export const JOURNAL_NAME = /^journal-(\d+)\.ndjson$/;

/** The path of the journal of `generation` in `dir`. */
export function journalPath(dir: string, generation: number): string {
  return join(dir, `journal-${generation}.ndjson`);
}

/**
 * The generations of the journals in `dir`, oldest first. Temporary files left by a kill (a
 * snapshot or a repair not renamed yet) are removed: what they held is still in place.
 */
export function journalGenerations(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
    for (const name of names) if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  } catch (error) {
    throw DataDirError.from(dir, error);
  }
  return names
    .map((name) => Number(JOURNAL_NAME.exec(name)?.[1] ?? Number.NaN))
    .filter((found) => !Number.isNaN(found))
    .sort((a, b) => a - b);
}

/**
 * Reads the snapshot and replays newer journals, every file read bounded and every record checked
 * for shape. A journal's last line cut short (a kill mid-append, a full disk) was never answered,
 * so it is skipped; anything else that does not read back as written is damage and throws
 * {@link DamagedDataError} naming the file and line, rather than silently dropping what a 2xx
 * promised (`--repair` drops damaged journal lines on purpose, saying which).
 */
export function loadDirectory(dir: string): {
  persisted: PersistedState | undefined;
  lastGeneration: number;
} {
  const snapshot = readSnapshot(dir);
  const generations = journalGenerations(dir);
  const lastGeneration = generations.at(-1) ?? 0;
  if (!snapshot) return { persisted: undefined, lastGeneration };
  // Replayed into dictionaries, never the parsed plain objects: a journal id such as `__proto__`
  // stays a key. A collection an older snapshot lacks is there, empty.
  const state = hydrateState(snapshot.state);
  const { clock } = snapshot;
  for (const generation of generations) {
    if (generation < snapshot.journal_generation) continue;
    const file = journalPath(dir, generation);
    for (const line of readJournal(file)) {
      if (line.damage !== undefined) throw new DamagedDataError(file, line.number, line.damage);
      replayJournal(state, line.entries);
    }
  }
  return { persisted: { state, clock }, lastGeneration };
}
