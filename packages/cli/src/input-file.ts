import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { usageError } from './exit-error';

/**
 * Reads a file argument as raw bytes, `-` meaning stdin. Bytes, not text: a webhook signature
 * covers the body exactly as received.
 */
export async function readInputFile(path: string, flag: string): Promise<Buffer> {
  if (path === '-') return buffer(process.stdin);
  try {
    return await readFile(path);
  } catch (error) {
    throw usageError(
      `cannot read ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
