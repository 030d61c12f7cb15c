import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { changeLine, flipBit, journaledDataDir } from '../_testing/journaled-data-dir';
import { encodeJournalLine } from '../store/_journal-line';
import { runCli } from './run-cli';
import type { EmulatorServer } from './start-server';

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

/** Runs `parley-emulator` in process and leaves it running: the server, or the exit code. */
async function startRunning(args: string[]) {
  const errors: string[] = [];
  const result = await runCli(['--port', '0', ...args], { out: () => {}, err: (line) => errors.push(line) });
  return { result, errors };
}

/** GET /v1/messages/{id} on a running server with its sandbox key: the status. */
async function getMessage(server: EmulatorServer, id: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/messages/${id}`, {
    headers: { authorization: `Bearer ${server.sandboxKey}` },
  });
  await response.arrayBuffer();
  return response.status;
}

const TEXTS = ['first', 'second', 'third', 'fourth'];
const REPAIR = 'Start with --repair to drop the damaged journal lines and keep every other one';
const CANNOT =
  '--repair cannot rebuild a snapshot: put back a copy of it, or move it away to start from an empty state';

describe('a damaged data dir stops the start, exit 2, naming the file and line (no acknowledged send is dropped silently)', () => {
  test('a middle line of garbage', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[1]!);
    changeLine(place, () => 'garbage');
    expect(await start(['--data-dir', dir])).toEqual({
      code: 2,
      errors: [
        `parley-emulator: could not start: ${place.file}:2 is damaged (not a journal line). ${REPAIR}`,
      ],
    });
  });

  test('one flipped bit in a middle line that still parses as JSON', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[2]!);
    changeLine(place, (line) => {
      const flipped = flipBit(line, line.indexOf('"third"') + 2); // "third" becomes "tiird"
      JSON.parse(flipped.subarray(17).toString());
      return flipped;
    });
    expect(await start(['--data-dir', dir])).toEqual({
      code: 2,
      errors: [
        `parley-emulator: could not start: ${place.file}:3 is damaged (its checksum does not match its content). ${REPAIR}`,
      ],
    });
  });

  test('a journal line of the wrong shape: named, never a TypeError', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[1]!);
    changeLine(place, () => encodeJournalLine([{ c: 'deliveries', id: 'd', v: { id: 'd', attempts: 3 } }]));
    const { code, errors } = await start(['--data-dir', dir]);
    expect(code).toBe(2);
    expect(errors).toEqual([
      `parley-emulator: could not start: ${place.file}:2 is damaged (wrong shape: [0].v.event_id: missing). ${REPAIR}`,
    ]);
    expect(errors.join('\n')).not.toMatch(/TypeError|Cannot read|is not iterable/);
  });

  test('a snapshot of the wrong shape', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    const file = join(dir, 'state.json');
    const { sha256: _, ...snapshot } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(
      file,
      JSON.stringify({ ...snapshot, state: { ...snapshot.state, webhooks: { deliveries: 5 } } }),
    );
    const { code, errors } = await start(['--data-dir', dir]);
    expect({ code, errors }).toEqual({
      code: 2,
      errors: [
        `parley-emulator: could not start: ${file} is damaged (wrong shape: state.webhooks.deliveries: expected an object). ${CANNOT}`,
      ],
    });
  });

  test('a torn last line (a kill mid-append, never acknowledged) still starts, with every message before it', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    appendFileSync(lineOf(ids[3]!).file, '0123456789abcdef [{"c":"messages","id":"x","v":{"mess');
    const { result, errors } = await startRunning(['--data-dir', dir]);
    expect(errors).toEqual([]);
    const server = result as EmulatorServer;
    for (const id of ids) expect(await getMessage(server, id)).toBe(200);
    await server.close();
  });

  test('journal, snapshot or seed file that is a symlink to /dev/zero: refused at once, before any read', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    rmSync(file);
    symlinkSync('/dev/zero', file);
    expect(await start(['--data-dir', dir])).toEqual({
      code: 2,
      errors: [`parley-emulator: could not start: ${file} is not a regular file (a character device)`],
    });
    const snapshot = join(dir, 'state.json');
    rmSync(snapshot);
    symlinkSync('/dev/zero', snapshot);
    expect((await start(['--data-dir', dir])).errors).toEqual([
      `parley-emulator: could not start: ${snapshot} is not a regular file (a character device)`,
    ]);
    const seed = join(parent, `zero-seed-${Date.now()}.json`);
    symlinkSync('/dev/zero', seed);
    expect(await start(['--seed', seed])).toEqual({
      code: 2,
      errors: [`parley-emulator: seed file ${seed} is not a regular file (a character device)`],
    });
  });
});

describe('--repair drops damaged journal lines, says which, keeps the rest and starts', () => {
  test('every other message is still there; a restart without --repair then starts', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[1]!);
    changeLine(place, (line) => flipBit(line, line.length - 3));
    expect((await start(['--data-dir', dir])).code).toBe(2);

    const { result, errors } = await startRunning(['--data-dir', dir, '--repair']);
    expect(errors).toEqual([
      `parley-emulator: --repair dropped 1 damaged line of ${place.file} (line 2); the journal as it was is kept in ${place.file}.damaged`,
    ]);
    const server = result as EmulatorServer;
    expect(await getMessage(server, ids[0]!)).toBe(200);
    expect(await getMessage(server, ids[1]!)).toBe(404);
    expect(await getMessage(server, ids[2]!)).toBe(200);
    expect(await getMessage(server, ids[3]!)).toBe(200);
    await server.close();

    const again = await startRunning(['--data-dir', dir]);
    expect(again.errors).toEqual([]);
    const restarted = again.result as EmulatorServer;
    for (const id of [ids[0]!, ids[2]!, ids[3]!]) expect(await getMessage(restarted, id)).toBe(200);
    await restarted.close();
    expect(await start(['--data-dir', dir, '--repair'])).toEqual({
      code: 'running',
      errors: [`parley-emulator: --repair: no damaged journal line in ${dir}`],
    });
  });

  test('a damaged snapshot is not repaired: exit 2, naming it', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    const snapshot = join(dir, 'state.json');
    writeFileSync(snapshot, flipBit(readFileSync(snapshot), 200));
    expect(await start(['--data-dir', dir, '--repair'])).toEqual({
      code: 2,
      errors: [
        `parley-emulator: could not start: ${snapshot} is damaged (its checksum does not match its content). ${CANNOT}`,
      ],
    });
  });

  test('--repair without --data-dir is a usage error', async () => {
    expect(await start(['--repair'])).toEqual({
      code: 2,
      errors: ['parley-emulator: --repair needs --data-dir: it repairs the journals of that directory.'],
    });
  });
});
