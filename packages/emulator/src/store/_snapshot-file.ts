import { hash } from 'node:crypto';
import { join } from 'node:path';
import { MAX_DATA_FILE_BYTES, readDataFile } from './_data-file';
import { SNAPSHOT_FILE } from './_record-shapes';
import { describeProblem } from './_shape';
import { DamagedDataError } from './data-dir-errors';
import type { PersistedState } from './persistence';

/** The snapshot's file name in the data dir. */
export const SNAPSHOT = 'state.json';

/** A snapshot as written. */
export interface SnapshotFile extends PersistedState {
  format: 'parley-emulator-state';
  version: 1;
  /** Journals from this generation on are newer than the snapshot. */
  journal_generation: number;
}

// The snapshot stays one JSON document (older emulators read it, ignoring `sha256`): the checksum
// sits in a fixed head and covers every byte after it.
const HEAD = '{"format":"parley-emulator-state","version":1,"sha256":"';
const HEAD_BYTES = Buffer.from(HEAD);
const DIGITS = 64;
const AFTER_DIGITS = '",';

const sha256 = (bytes: Uint8Array | string) => hash('sha256', bytes, 'hex');

/**
 * The text of a snapshot: `{"format":…,"version":1,"sha256":"<hex>",` then the rest of the
 * document, whose bytes the SHA-256 covers.
 */
export function encodeSnapshot(journalGeneration: number, persisted: PersistedState): string {
  const rest = JSON.stringify({ journal_generation: journalGeneration, ...persisted }).slice(1);
  return `${HEAD}${sha256(rest)}${AFTER_DIGITS}${rest}`;
}

/**
 * Reads `state.json` of `dir`, bounded ({@link MAX_DATA_FILE_BYTES}); `undefined` when there is
 * none. A checksum that does not match, a file that is not JSON or a record of the wrong shape
 * throws {@link DamagedDataError}: a snapshot is all or nothing.
 */
export function readSnapshot(dir: string): SnapshotFile | undefined {
  const file = join(dir, SNAPSHOT);
  const bytes = readDataFile(file, MAX_DATA_FILE_BYTES);
  if (bytes === undefined) return undefined;
  const damaged = (problem: string) => new DamagedDataError(file, undefined, problem);
  const checksummed = bytes.subarray(0, HEAD_BYTES.length).equals(HEAD_BYTES);
  if (checksummed) {
    const digits = bytes.subarray(HEAD_BYTES.length, HEAD_BYTES.length + DIGITS + AFTER_DIGITS.length);
    const expected = digits.toString('latin1');
    const rest = bytes.subarray(HEAD_BYTES.length + digits.length);
    if (!/^[0-9a-f]{64}",$/.test(expected) || sha256(rest) !== expected.slice(0, DIGITS)) {
      throw damaged('its checksum does not match its content');
    }
  }
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(bytes.toString('utf8'));
  } catch {
    // The parser's message quotes the file: not printed (secrets, control characters).
    throw damaged('not JSON');
  }
  const top = snapshot as Partial<SnapshotFile> & { sha256?: unknown };
  if (typeof snapshot !== 'object' || snapshot === null || top.format !== 'parley-emulator-state') {
    throw damaged('not an emulator state file');
  }
  // Written by this version, the head is exact: a `sha256` read any other way is a damaged head.
  if (!checksummed && 'sha256' in top) throw damaged('its checksum head does not match');
  const problem = SNAPSHOT_FILE(snapshot);
  if (problem !== undefined) throw damaged(`wrong shape: ${describeProblem(problem)}`);
  delete top.sha256;
  return snapshot as SnapshotFile;
}
