import { readDataFile } from './_data-file';
import { printable } from './_printable';
import { DataDirError, errnoCode } from './data-dir-errors';
import { parseSeed } from './parse-seed';
import type { SeedFile } from './seed-types';

/** The most a seed file may hold: 16 MiB, far more than a team's setup, read whole at start. */
export const MAX_SEED_BYTES = 16 * 1024 * 1024;

/**
 * Reads and validates a seed file; errors name the file and the exact place. The read is bounded
 * ({@link MAX_SEED_BYTES}) and only a regular file is read (a symlink to one is fine).
 */
export async function readSeedFile(path: string): Promise<SeedFile> {
  let bytes: Buffer | undefined;
  try {
    bytes = readDataFile(path, MAX_SEED_BYTES);
  } catch (error) {
    // Not a regular file, or too large: the reason says it better than an errno.
    if (error instanceof DataDirError && error.errno === 'EINVAL')
      throw new Error(`seed file ${error.message}`);
    if (error instanceof DataDirError && error.errno === 'EFBIG') {
      throw new Error(
        `seed file ${path} is larger than the ${MAX_SEED_BYTES / 1024 / 1024} MiB a seed file may hold`,
      );
    }
    throw new Error(`cannot read seed file ${path}: ${errnoCode(error)}`);
  }
  if (bytes === undefined) throw new Error(`cannot read seed file ${path}: ENOENT`);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    // The parser's message quotes the file: shown without its control characters.
    throw new Error(`seed file ${path} is not valid JSON: ${printable((error as Error).message, 200)}`);
  }
  try {
    return parseSeed(json);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}
