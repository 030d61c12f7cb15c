import { closeSync, fsyncSync, openSync } from 'node:fs';

/** Makes a rename in `dir` durable: fsync of the directory itself. */
export function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic.
  }
}
