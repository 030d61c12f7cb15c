import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DomainError } from '../domain/domain-error';

// What an errno means to someone choosing a data dir: the words say what to fix.
const MEANINGS: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'a file that is not a directory is in the way',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EFBIG: 'file too large',
};

/** The errno code of a failed file operation (`EIO` when it has none). */
export function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'EIO';
}

/**
 * "cannot write to /x/y: read-only file system (EROFS)": the path and the cause, without a stack.
 * For ENOTDIR the part of the path that is a file, not a directory, is named.
 */
export function describeWriteFailure(path: string, error: unknown): string {
  const code = errnoCode(error);
  if (code === 'ENOTDIR') return `cannot write to ${path}: ${fileInPath(path)} is not a directory (ENOTDIR)`;
  const meaning = MEANINGS[code] ?? (error instanceof Error ? error.message : String(error));
  return `cannot write to ${path}: ${meaning} (${code})`;
}

/** "cannot read /x/state.json: permission denied (EACCES)": the path and the cause, without a stack. */
export function describeReadFailure(path: string, error: unknown): string {
  const code = errnoCode(error);
  const meaning = MEANINGS[code] ?? (error instanceof Error ? error.message : String(error));
  return `cannot read ${path}: ${meaning} (${code})`;
}

function fileInPath(path: string): string {
  for (let candidate = dirname(path); candidate !== dirname(candidate); candidate = dirname(candidate)) {
    try {
      if (!statSync(candidate).isDirectory()) return candidate;
    } catch {
      // Missing or unreadable: keep walking up to the part that exists.
    }
  }
  return 'a parent';
}

/** The data dir cannot be used at start (missing permission, read-only, a file in the way). The bin exits 2. */
export class DataDirError extends Error {
  override readonly name: string = 'DataDirError';
  constructor(
    readonly path: string,
    readonly errno: string,
    message: string,
  ) {
    super(message);
  }

  static from(path: string, error: unknown): DataDirError {
    return new DataDirError(path, errnoCode(error), describeWriteFailure(path, error));
  }

  /** A file of the data dir that could not be read at start (its errno named). */
  static fromRead(path: string, error: unknown): DataDirError {
    return new DataDirError(path, errnoCode(error), describeReadFailure(path, error));
  }
}

/**
 * A file of the data dir holds something this emulator never wrote (a flipped bit, a line of
 * garbage, a record of the wrong shape): starting would silently drop acknowledged data, so the
 * start stops here, naming the file and line. `line` is 1-based, absent for a whole-file problem
 * (the snapshot). Damaged journal lines can be dropped with `--repair`; a snapshot cannot.
 */
export class DamagedDataError extends DataDirError {
  override readonly name = 'DamagedDataError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly problem: string,
  ) {
    super(
      file,
      'EBADMSG',
      line === undefined
        ? `${file} is damaged (${problem}). --repair cannot rebuild a snapshot: put back a copy of it, or move it away to start from an empty state`
        : `${file}:${line} is damaged (${problem}). Start with --repair to drop the damaged journal lines and keep every other one`,
    );
  }
}

/**
 * A change could not be written to the data dir while running (a full disk, a disk gone
 * read-only). Nothing of the change was kept, so the answer is a 500 `internal_error` that says
 * so in words, never a stack trace; `problem` is the line the log gets.
 */
export class PersistenceError extends DomainError {
  constructor(
    readonly problem: string,
    readonly errno: string,
  ) {
    super(
      'internal_error',
      `The emulator could not write to its data dir (${MEANINGS[errno] ?? 'write failed'}, ${errno}), so this change was not stored. Retry once the data dir can be written again.`,
    );
  }
}
