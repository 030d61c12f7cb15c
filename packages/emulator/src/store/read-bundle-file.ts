import { readDataFile } from './_data-file';
import { printable } from './_printable';
import { DataDirError, errnoCode } from './data-dir-errors';

/**
 * The most an export bundle file may hold (`--import FILE`): 64 MiB, the same bound as the body of
 * `POST /_emulator/import` (`MAX_BUNDLE_BYTES`).
 */
export const MAX_BUNDLE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads an export bundle for `--import`: a regular file of at most {@link MAX_BUNDLE_FILE_BYTES},
 * parsed as JSON. Its content is checked when the emulator starts from it (`parseBundle`), which
 * names the wrong place; here only reading and JSON fail, each naming the file.
 */
export function readBundleFile(path: string): unknown {
  const shown = printable(path, 200);
  let bytes: Buffer | undefined;
  try {
    bytes = readDataFile(path, MAX_BUNDLE_FILE_BYTES);
  } catch (error) {
    if (error instanceof DataDirError && error.errno === 'EINVAL')
      throw new Error(`bundle file ${printable(error.message, 300)}`);
    if (error instanceof DataDirError && error.errno === 'EFBIG') {
      throw new Error(
        `bundle file ${shown} is larger than the ${MAX_BUNDLE_FILE_BYTES / 1024 / 1024} MiB a bundle may hold`,
      );
    }
    throw new Error(`cannot read bundle file ${shown}: ${errnoCode(error)}`);
  }
  if (bytes === undefined) throw new Error(`cannot read bundle file ${shown}: ENOENT`);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    // The parser's message quotes the file: shown without its control characters.
    throw new Error(`bundle file ${shown} is not valid JSON: ${printable((error as Error).message, 200)}`);
  }
}
