import { open, writeFile } from 'node:fs/promises';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { terminalSafeJson } from '../../output/terminal-safe';

/** The most a bundle file may hold: the emulator's bound on an import (64 MiB). */
export const MAX_BUNDLE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Writes `value` as JSON to `file`, readable by its owner only: a bundle may hold signing secrets,
 * a HAR message texts. Whatever was there is replaced.
 */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  try {
    await writeFile(file, `${terminalSafeJson(value, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new ExitError(
      EXIT.config,
      `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** The JSON of a bundle file, read bounded ({@link MAX_BUNDLE_FILE_BYTES}); a regular file only. */
export async function readBundleFile(file: string): Promise<unknown> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw usageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let text: string;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw usageError(`${file} is not a regular file`);
    if (stats.size > MAX_BUNDLE_FILE_BYTES) {
      throw usageError(
        `${file} is larger than the 64 MiB a bundle may hold (${stats.size.toLocaleString('en-US')} bytes)`,
      );
    }
    // One byte more than allowed: a file that grew since fstat is refused too.
    const buffer = Buffer.alloc(MAX_BUNDLE_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_BUNDLE_FILE_BYTES)
        throw usageError(`${file} is larger than the 64 MiB a bundle may hold`);
    }
    text = buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw usageError(`${file} is not valid JSON: export a bundle with \`parley emulator export --out FILE\``);
  }
}
