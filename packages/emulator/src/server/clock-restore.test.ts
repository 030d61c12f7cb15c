import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, testEmulator } from '../_testing/test-emulator';
import { ClockRangeError } from '../core/workspace-clocks';
import { createEmulator } from '../create-emulator';
import { CLOCK_LATEST_MS } from '../domain/clock-range';
import { DataDirError } from '../store/data-dir-errors';
import { runCli } from './run-cli';

// A clock outside 1970-01-01T00:00:00Z – 9999-12-31T23:59:59.999Z never starts: not from
// createEmulator's `now`, and not from a data dir whose snapshot holds one (the bin exits 2 naming
// the file) — rather than starting and answering 500 on the first advance.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const RANGE = '1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';

/** A data dir with a frozen global clock at T0 and one workspace with its own frozen clock. */
async function dataDirWithOwnClock(): Promise<{ dir: string; workspaceId: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-clock-restore-'));
  dirs.push(dir);
  const { emulator } = testEmulator({ dataDir: dir });
  const { id } = await emulator.control.createWorkspace({
    name: 'W',
    clock: 'frozen',
    now: '2026-10-14T12:00:00Z',
  });
  await emulator.close();
  return { dir, workspaceId: id };
}

/** Rewrites the snapshot as an older emulator wrote it (no checksum), after `edit`. */
// biome-ignore lint/suspicious/noExplicitAny: a snapshot is edited as the plain JSON it is
function editSnapshot(dir: string, edit: (snapshot: Record<string, any>) => void): string {
  const file = join(dir, 'state.json');
  const { sha256: _checksum, ...snapshot } = JSON.parse(readFileSync(file, 'utf8'));
  edit(snapshot);
  writeFileSync(file, JSON.stringify(snapshot));
  return file;
}

async function startBin(dir: string) {
  const errors: string[] = [];
  const result = await runCli(['--port', '0', '--clock', 'frozen', '--data-dir', dir], {
    out: () => {},
    err: (line) => errors.push(line),
  });
  if (typeof result !== 'number') await result.close();
  return { code: typeof result === 'number' ? result : 'running', errors };
}

describe('createEmulator({ now })', () => {
  test.each([
    [-1, '1969-12-31T23:59:59.999Z'],
    [CLOCK_LATEST_MS + 1, '+010000-01-01T00:00:00.000Z'],
    [8.64e15, '+275760-09-13T00:00:00.000Z'],
    [Number.NaN, 'NaN ms'],
  ])('%d is refused with a ClockRangeError saying where', (now, shown) => {
    expect(() => createEmulator({ clock: 'frozen', now })).toThrow(
      new ClockRangeError('the global clock', now),
    );
    expect(() => createEmulator({ clock: 'frozen', now })).toThrow(
      `the global clock is at ${shown}, outside the times an emulator clock can hold (${RANGE})`,
    );
  });

  test('both ends of the range start', async () => {
    for (const now of [0, CLOCK_LATEST_MS]) {
      const emulator = createEmulator({ clock: 'frozen', now });
      expect(emulator.clock.now()).toBe(now);
      await emulator.close();
    }
  });
});

describe('a data dir whose snapshot holds a clock out of range', () => {
  test("a workspace's frozen clock past the range: DataDirError naming state.json; the bin exits 2 saying so", async () => {
    const { dir, workspaceId } = await dataDirWithOwnClock();
    const file = editSnapshot(dir, (snapshot) => {
      snapshot.state.workspaces[workspaceId].clock.frozen_at = 8.64e15;
    });
    const message = `${file} holds a clock the emulator cannot move through: the clock of workspace ${workspaceId} is at +275760-09-13T00:00:00.000Z, outside the times an emulator clock can hold (${RANGE}). Move the file away to start from an empty state`;
    let thrown: unknown;
    try {
      createEmulator({ clock: 'frozen', dataDir: dir });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DataDirError);
    expect(thrown).toMatchObject({ path: file, errno: 'ERANGE', message });
    expect(await startBin(dir)).toEqual({
      code: 2,
      errors: [`parley-emulator: could not start: ${message}`],
    });
  });

  test('a real workspace clock whose offset puts it before 1970, and the global clock past 9999: each named', async () => {
    const { dir, workspaceId } = await dataDirWithOwnClock();
    editSnapshot(dir, (snapshot) => {
      snapshot.state.workspaces[workspaceId].clock = {
        mode: 'real',
        offset_ms: -1e13 - Date.now(),
        frozen_at: 0,
      };
    });
    expect(() => createEmulator({ clock: 'frozen', dataDir: dir })).toThrow(
      /the clock of workspace [0-9a-f-]{36} is at 1653-02-10T06:13:20\.\d{3}Z, outside/,
    );

    const other = await dataDirWithOwnClock();
    const file = editSnapshot(other.dir, (snapshot) => {
      snapshot.clock.frozenAt = CLOCK_LATEST_MS + 1;
    });
    const started = await startBin(other.dir);
    expect(started.code).toBe(2);
    expect(started.errors).toEqual([
      `parley-emulator: could not start: ${file} holds a clock the emulator cannot move through: the global clock is at +010000-01-01T00:00:00.000Z, outside the times an emulator clock can hold (${RANGE}). Move the file away to start from an empty state`,
    ]);
  });

  test('a real workspace clock that ran past the end while stopped restores standing at the end', async () => {
    const { dir, workspaceId } = await dataDirWithOwnClock();
    editSnapshot(dir, (snapshot) => {
      snapshot.state.workspaces[workspaceId].clock = {
        mode: 'real',
        offset_ms: CLOCK_LATEST_MS + 5_000 - Date.now(),
        frozen_at: 0,
      };
    });
    const emulator = createEmulator({ clock: 'frozen', dataDir: dir });
    await emulator.ready;
    expect(emulator.workspaceClock(workspaceId).now()).toBe(CLOCK_LATEST_MS);
    const refused = await emulator.control.advanceWorkspaceClock(workspaceId, 1).catch((error) => error);
    expect(refused).toMatchObject({
      code: 'validation_error',
      details: { field: 'ms', reason: 'out_of_range' },
    });
    await emulator.close();
  });

  test('the global clock, real, that ran past the end while stopped stands at the end, whatever mode it restarts in', async () => {
    for (const clock of ['frozen', 'real'] as const) {
      const { dir } = await dataDirWithOwnClock();
      editSnapshot(dir, (snapshot) => {
        snapshot.clock = { mode: 'real', offsetMs: CLOCK_LATEST_MS + 5_000 - Date.now(), frozenAt: 0 };
      });
      const emulator = createEmulator({ clock, dataDir: dir });
      await emulator.ready;
      expect(emulator.clock.now(), clock).toBe(CLOCK_LATEST_MS);
      await emulator.close();
    }
  });

  test('clocks at the very ends of the range restore', async () => {
    const { dir, workspaceId } = await dataDirWithOwnClock();
    editSnapshot(dir, (snapshot) => {
      snapshot.clock.frozenAt = 0;
      snapshot.state.workspaces[workspaceId].clock.frozen_at = CLOCK_LATEST_MS;
    });
    const emulator = createEmulator({ clock: 'frozen', dataDir: dir });
    await emulator.ready;
    expect(emulator.clock.now()).toBe(0);
    expect(emulator.workspaceClock(workspaceId).now()).toBe(CLOCK_LATEST_MS);
    await emulator.close();
  });

  test('an ordinary data dir still restores its clocks (unchanged)', async () => {
    const { dir, workspaceId } = await dataDirWithOwnClock();
    const emulator = createEmulator({ clock: 'frozen', dataDir: dir });
    await emulator.ready;
    expect(emulator.clock.now()).toBe(T0);
    expect(emulator.workspaceClock(workspaceId).now()).toBe(Date.parse('2026-10-14T12:00:00Z'));
    await emulator.close();
  });
});
