import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from './run-cli';

const parent = mkdtempSync(join(tmpdir(), 'parley-startup-'));
const readOnly = join(parent, 'read-only');
let mountRefused: string | undefined;

// Tests run as root here, so a chmod'ed directory would still be writable: a read-only tmpfs is
// the honest read-only disk, when mounting is permitted.
beforeAll(() => {
  mkdirSync(readOnly);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', readOnly], { stdio: 'pipe' });
  } catch (error) {
    mountRefused = String((error as { stderr?: Buffer }).stderr ?? error).trim();
  }
});
afterAll(() => {
  if (!mountRefused) execFileSync('umount', [readOnly]);
  rmSync(parent, { recursive: true, force: true });
});

/** Runs `parley-emulator` in process: the exit code the bin would set and what it wrote to stderr. */
async function start(args: string[]) {
  const errors: string[] = [];
  const result = await runCli(['--port', '0', ...args], { out: () => {}, err: (line) => errors.push(line) });
  if (typeof result !== 'number') await result.close();
  return { code: typeof result === 'number' ? result : 'running', errors };
}

describe('a data dir that cannot be used stops the start with its real cause, exit 2', () => {
  test('a path under a regular file: ENOTDIR, naming the file', async () => {
    const file = join(parent, 'a-file');
    writeFileSync(file, '');
    const dir = join(file, 'state');
    expect(await start(['--data-dir', dir])).toEqual({
      code: 2,
      errors: [
        `parley-emulator: could not start: cannot write to ${dir}: ${file} is not a directory (ENOTDIR)`,
      ],
    });
  });

  test('a read-only file system: EROFS', async (context) => {
    if (mountRefused) context.skip(`mount is not permitted here, so no read-only disk: ${mountRefused}`);
    expect(await start(['--data-dir', readOnly])).toEqual({
      code: 2,
      errors: [
        `parley-emulator: could not start: cannot write to ${readOnly}: read-only file system (EROFS)`,
      ],
    });
    // A dir to create on it fails the same way, one level earlier (mkdir).
    const below = join(readOnly, 'state');
    expect((await start(['--data-dir', below])).errors).toEqual([
      `parley-emulator: could not start: cannot write to ${below}: read-only file system (EROFS)`,
    ]);
  });
});
