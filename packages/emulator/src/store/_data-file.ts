import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { DataDirError, errnoCode } from './data-dir-errors';

/**
 * The most a snapshot or one journal file may hold: 256 MiB. The emulator keeps its whole state in
 * memory and a snapshot is one JSON string (V8 caps a string at ~512 Mi characters); 256 MiB is
 * ~380,000 messages, about 850 MB of heap. The writer keeps to it too, so whatever was acknowledged
 * can be loaded again.
 */
export const MAX_DATA_FILE_BYTES = 256 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;
const MIB = 1024 * 1024;

// A FIFO would block the open until a writer came; non-blocking, it opens and fstat refuses it.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

const amount = (bytes: number) =>
  bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en-US')} bytes`;

const tooLarge = (path: string, limit: number, size: string) =>
  new DataDirError(
    path,
    'EFBIG',
    `${path} is larger than the ${amount(limit)} a data file may hold (${size})`,
  );

/**
 * Opens a file to read at start: a regular file (a symlink to one is fine) of at most `limit`
 * bytes. `undefined` when it does not exist; any other problem is a {@link DataDirError} naming it.
 */
function openBounded(path: string, limit: number): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw DataDirError.fromRead(path, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw new DataDirError(path, 'EINVAL', `${path} is not a regular file (${kindOf(stats)})`);
    }
    if (stats.size > limit) throw tooLarge(path, limit, `${stats.size.toLocaleString('en-US')} bytes`);
  } catch (error) {
    closeSync(fd);
    throw error instanceof DataDirError ? error : DataDirError.fromRead(path, error);
  }
  return fd;
}

/**
 * Reads `fd` by chunks, never more than `limit` bytes in all (a file still growing is refused
 * once past it, whatever fstat said).
 */
function* chunks(path: string, fd: number, limit: number): Generator<Buffer> {
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let read: number;
    try {
      read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
    } catch (error) {
      throw DataDirError.fromRead(path, error);
    }
    if (read === 0) return;
    total += read;
    if (total > limit) throw tooLarge(path, limit, 'more was read than its size said');
    yield chunk.subarray(0, read);
  }
}

/** The whole of a data file (see {@link openBounded}), or `undefined` when it does not exist. */
export function readDataFile(path: string, limit: number = MAX_DATA_FILE_BYTES): Buffer | undefined {
  const fd = openBounded(path, limit);
  if (fd === undefined) return undefined;
  try {
    return Buffer.concat([...chunks(path, fd, limit)]);
  } finally {
    closeSync(fd);
  }
}

/** One line of a data file, without its newline; `complete` is false for a last line without one. */
export interface DataFileLine {
  bytes: Buffer;
  /** 1-based. */
  number: number;
  complete: boolean;
}

/**
 * The lines of a data file, read by chunks so only one line at a time is held (see
 * {@link openBounded}; a missing file has no lines).
 */
export function* dataFileLines(path: string, limit: number = MAX_DATA_FILE_BYTES): Generator<DataFileLine> {
  const fd = openBounded(path, limit);
  if (fd === undefined) return;
  try {
    let pieces: Buffer[] = [];
    let number = 0;
    for (const chunk of chunks(path, fd, limit)) {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        pieces.push(chunk.subarray(start, end));
        yield { bytes: Buffer.concat(pieces), number: ++number, complete: true };
        pieces = [];
        start = end + 1;
      }
      if (start < chunk.length) pieces.push(chunk.subarray(start));
    }
    if (pieces.length > 0) yield { bytes: Buffer.concat(pieces), number: ++number, complete: false };
  } finally {
    closeSync(fd);
  }
}
