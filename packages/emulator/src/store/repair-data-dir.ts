import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { DATA_FILE_MODE } from './_journal-file';
import { journalGenerations, journalPath } from './_load-directory';
import { readJournal } from './_read-journal';
import { readSnapshot } from './_snapshot-file';
import { syncDirectory } from './_sync-directory';
import { DataDirError } from './data-dir-errors';

/** What `--repair` dropped from one journal. */
export interface DroppedLines {
  /** The journal, now without its damaged lines. */
  file: string;
  /** The damaged lines' numbers in the journal as it was (1-based). */
  lines: number[];
  /** Where the journal as it was is kept, damaged lines included. */
  copy: string;
}

/**
 * `--repair`: rewrites every journal the next start would replay without its damaged lines,
 * keeping every line that reads back as written, and returns what it dropped. Each journal is
 * replaced durably (a new file, fsync'ed, renamed over it, directory fsync'ed) and the journal as
 * it was stays beside it as `<name>.damaged`. A damaged snapshot cannot be repaired: it throws
 * `DamagedDataError`, as a start does.
 */
export function repairDataDir(dir: string): DroppedLines[] {
  if (!existsSync(dir)) return [];
  const snapshot = readSnapshot(dir);
  if (!snapshot) return [];
  const dropped: DroppedLines[] = [];
  for (const generation of journalGenerations(dir)) {
    if (generation < snapshot.journal_generation) continue;
    const file = journalPath(dir, generation);
    // Numbers only: a journal is read one line at a time, never held whole.
    const lines: number[] = [];
    for (const line of readJournal(file)) if (line.damage !== undefined) lines.push(line.number);
    if (lines.length === 0) continue;
    const copy = `${file}.damaged`;
    try {
      rewriteWithoutDamage(file);
      keepCopy(file, copy);
      renameSync(`${file}.repair.tmp`, file);
    } catch (error) {
      rmSync(`${file}.repair.tmp`, { force: true });
      throw DataDirError.from(file, error);
    }
    syncDirectory(dir);
    dropped.push({ file, lines, copy });
  }
  return dropped;
}

/** Writes `<file>.repair.tmp`: every undamaged line of `file`, each with its newline, synced. */
function rewriteWithoutDamage(file: string): void {
  const fd = openSync(`${file}.repair.tmp`, 'w', DATA_FILE_MODE);
  try {
    for (const line of readJournal(file)) {
      if (line.damage !== undefined) continue;
      const bytes = Buffer.concat([line.bytes, Buffer.from('\n')]);
      for (let written = 0; written < bytes.length; ) {
        const count = writeSync(fd, bytes, written, bytes.length - written);
        if (!(count > 0)) throw Object.assign(new Error('the write made no progress'), { code: 'EIO' });
        written += count;
      }
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The journal as it was, beside it: a hard link where the file system has them, else a copy. */
function keepCopy(file: string, copy: string): void {
  rmSync(copy, { force: true });
  try {
    linkSync(file, copy);
  } catch {
    copyFileSync(file, copy);
  }
}

const LISTED_LINES = 20;

/**
 * What `--repair` did, one line per journal it changed (or one saying none was damaged):
 * `--repair dropped 2 damaged lines of /d/journal-3.ndjson (lines 2, 7); …kept in …`.
 */
export function describeRepair(dir: string, dropped: readonly DroppedLines[]): string[] {
  if (dropped.length === 0) return [`--repair: no damaged journal line in ${dir}`];
  return dropped.map(({ file, lines, copy }) => {
    const listed = lines.slice(0, LISTED_LINES).join(', ');
    const more = lines.length > LISTED_LINES ? ` and ${lines.length - LISTED_LINES} more` : '';
    const which = `line${lines.length === 1 ? '' : 's'} ${listed}${more}`;
    return `--repair dropped ${lines.length} damaged line${lines.length === 1 ? '' : 's'} of ${file} (${which}); the journal as it was is kept in ${copy}`;
  });
}
