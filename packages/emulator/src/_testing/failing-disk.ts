import { ftruncateSync, writeSync } from 'node:fs';
import type { DiskWrites } from '../store/file-persistence';

const noSpace = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

/**
 * A disk a test fills on purpose, in process: writes behave like a nearly full or full
 * filesystem (short writes, a write that stops half-way, ENOSPC) without mounting one.
 */
export function failingDisk() {
  const state = {
    /** Every journal write throws ENOSPC. */
    full: false,
    /** Each write call takes at most this many bytes (0: all), as a nearly full disk does. */
    bytesPerWrite: 0,
    /** The next journal write takes half its bytes, then the disk is full. */
    fillHalfWay: false,
    /** Snapshots write a few bytes of their temporary file, then fail with ENOSPC. */
    snapshotsFail: false,
    /** Cutting a journal back after a failed append fails too (EIO): its torn bytes stay. */
    cutsFail: false,
  };
  const writes: DiskWrites = {
    write(fd, buffer, offset, length) {
      if (state.full) throw noSpace();
      if (state.fillHalfWay) {
        state.fillHalfWay = false;
        state.full = true;
        return writeSync(fd, buffer, offset, Math.ceil(length / 2));
      }
      return writeSync(
        fd,
        buffer,
        offset,
        state.bytesPerWrite ? Math.min(length, state.bytesPerWrite) : length,
      );
    },
    async writeFile(file, text) {
      if (state.snapshotsFail) {
        await file.writeFile(text.slice(0, 16));
        throw noSpace();
      }
      await file.writeFile(text);
    },
    truncate(fd, length) {
      if (state.cutsFail)
        throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO', errno: -5 });
      ftruncateSync(fd, length);
    },
  };
  return { state, writes };
}
