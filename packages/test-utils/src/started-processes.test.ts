import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startNodeProcess, stopStartedProcesses } from './node-process';

/** Whether `pid` is a live process (a zombie waiting to be reaped is not). */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
}

test('stopStartedProcesses kills a process that is still running', async () => {
  const forever = startNodeProcess('-e', ['setInterval(() => {}, 60_000)']);
  await new Promise((resolve) => forever.child.once('spawn', resolve));
  stopStartedProcesses();
  const result = await forever.exited;
  expect(result.code).toBeNull();
  expect(forever.child.signalCode).toBe('SIGKILL');
});

test('a process a test file leaves running is killed when the file ends (vitest.setup.ts)', () => {
  const pidFile = join(mkdtempSync(join(tmpdir(), 'parley-left-running-')), 'pid');
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const config = fileURLToPath(
    new URL('./__fixtures__/process-left-running/vitest.config.ts', import.meta.url),
  );
  const run = spawnSync(process.execPath, [vitest, 'run', '--config', config], {
    env: { ...process.env, PID_FILE: pidFile, CI: '' },
    encoding: 'utf8',
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  expect(pid).toBeGreaterThan(0);
  expect(isRunning(pid)).toBe(false);
});
