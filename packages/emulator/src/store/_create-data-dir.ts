import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataDirError, errnoCode } from './data-dir-errors';

/** The data dir holds webhook secrets in clear: owner only. */
const DATA_DIR_MODE = 0o700;

/** Creates the data dir (and missing parents) 0700; an existing one is left as it is. */
export function createDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  } catch (error) {
    throw DataDirError.from(dir, realCause(dir, error));
  }
}

/**
 * Node's recursive mkdir answers ENOENT for whatever stopped it below an existing parent
 * (read-only, no permission): the first missing level, created on its own, tells the real cause.
 */
function realCause(dir: string, error: unknown): unknown {
  if (errnoCode(error) !== 'ENOENT') return error;
  let missing = dir;
  while (dirname(missing) !== missing && !existsSync(dirname(missing))) missing = dirname(missing);
  try {
    mkdirSync(missing, { mode: DATA_DIR_MODE });
  } catch (cause) {
    return cause;
  }
  return error;
}
