import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync } from 'node:fs';

/** `fs.writeSync`'s shape: it may write fewer bytes than asked (a nearly full disk) or throw. */
export type WriteBytes = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

/** Files in the data dir hold webhook secrets in clear: owner only. */
export const DATA_FILE_MODE = 0o600;

/**
 * One append-only journal file. A line counts once every byte of it is written and
 * `fdatasync`'ed; anything less throws, and the file is cut back to its last whole line, so a
 * failed append never glues itself to (and spoils) the next one.
 */
export class JournalFile {
  readonly #fd: number;
  readonly #write: WriteBytes;
  /** Bytes of whole lines. */
  #length: number;
  /** The last append failed and may have left bytes behind: the next line starts on a fresh line. */
  #mayBeTorn = false;

  /** Opens (creating) `path` for appending; throws the `fs` error when it cannot. */
  constructor(path: string, write: WriteBytes) {
    this.#fd = openSync(path, 'a', DATA_FILE_MODE);
    this.#write = write;
    try {
      this.#length = fstatSync(this.#fd).size;
    } catch (error) {
      closeSync(this.#fd);
      throw error;
    }
  }

  /** Appends `line` plus a newline durably, or throws the error that stopped it. */
  append(line: string): void {
    const bytes = Buffer.from(this.#mayBeTorn ? `\n${line}\n` : `${line}\n`);
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
    this.#mayBeTorn = false;
  }

  close(): void {
    closeSync(this.#fd);
  }

  #cutBack(): void {
    // The leading newline of the next line covers the case where the cut itself fails or is lost.
    this.#mayBeTorn = true;
    try {
      ftruncateSync(this.#fd, this.#length);
    } catch {
      // Reported through the append's own error; the loader skips a torn line.
    }
  }
}
