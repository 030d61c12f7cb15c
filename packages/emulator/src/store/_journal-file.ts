import { closeSync, fdatasyncSync, fstatSync, openSync } from 'node:fs';

/** `fs.writeSync`'s shape: it may write fewer bytes than asked (a nearly full disk) or throw. */
export type WriteBytes = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

/** `fs.ftruncateSync`'s shape. */
export type TruncateFile = (fd: number, length: number) => void;

/** Files in the data dir hold webhook secrets in clear: owner only. */
export const DATA_FILE_MODE = 0o600;

/**
 * One append-only journal file. A line counts once every byte of it and its newline is written
 * and `fdatasync`'ed; anything less throws, and the file is cut back to its last whole line, so a
 * failed append never glues itself to (and spoils) the next one. When even the cut fails, the file
 * is {@link JournalFile.spoiled}: its torn bytes must stay its last, so the writer moves on to a
 * new journal (the loader skips a torn last line; a torn line in the middle would be damage).
 */
export class JournalFile {
  readonly #fd: number;
  readonly #write: WriteBytes;
  readonly #truncate: TruncateFile;
  /** Bytes of whole lines. */
  #length: number;
  #spoiled = false;

  /** Opens (creating) `path` for appending; throws the `fs` error when it cannot. */
  constructor(path: string, write: WriteBytes, truncate: TruncateFile) {
    this.#fd = openSync(path, 'a', DATA_FILE_MODE);
    this.#write = write;
    this.#truncate = truncate;
    try {
      this.#length = fstatSync(this.#fd).size;
    } catch (error) {
      closeSync(this.#fd);
      throw error;
    }
  }

  /** Bytes of whole lines so far. */
  get length(): number {
    return this.#length;
  }

  /** A failed append could not be cut back: nothing more may be appended to this file. */
  get spoiled(): boolean {
    return this.#spoiled;
  }

  /** Appends `line` plus a newline durably, or throws the error that stopped it. */
  append(line: string): void {
    if (this.#spoiled) throw Object.assign(new Error('the journal ends with a torn line'), { code: 'EIO' });
    const bytes = Buffer.from(`${line}\n`);
    try {
      let written = 0;
      while (written < bytes.length) {
        const count = this.#write(this.#fd, bytes, written, bytes.length - written);
        // A write that makes no progress would loop forever: report it as the I/O failure it is.
        if (!(count > 0)) throw Object.assign(new Error('the write made no progress'), { code: 'EIO' });
        written += count;
      }
      fdatasyncSync(this.#fd);
    } catch (error) {
      this.#cutBack();
      throw error;
    }
    this.#length += bytes.length;
  }

  close(): void {
    closeSync(this.#fd);
  }

  #cutBack(): void {
    try {
      this.#truncate(this.#fd, this.#length);
    } catch {
      // Reported through the append's own error; the writer opens a new journal.
      this.#spoiled = true;
    }
  }
}
