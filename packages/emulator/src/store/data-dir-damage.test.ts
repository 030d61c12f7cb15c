import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { changeLine, flipBit, journaledDataDir } from '../_testing/journaled-data-dir';
import { testEmulator } from '../_testing/test-emulator';
import { createEmulator } from '../create-emulator';
import { MAX_DATA_FILE_BYTES } from './_data-file';
import { encodeJournalLine } from './_journal-line';
import { DamagedDataError, DataDirError } from './data-dir-errors';

const parent = mkdtempSync(join(tmpdir(), 'parley-damage-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const TEXTS = ['first', 'second', 'third'];
const REPAIR = 'Start with --repair to drop the damaged journal lines and keep every other one';

/** What starting on `dir` throws, or else the ids of the messages it loaded, sorted. */
async function startOn(dir: string): Promise<string[] | unknown> {
  let restarted: ReturnType<typeof testEmulator>;
  try {
    restarted = testEmulator({ dataDir: dir });
  } catch (error) {
    return error;
  }
  await restarted.emulator.ready;
  return (await restarted.emulator.control.listMessages({ limit: 100 })).data
    .map((message) => message.id)
    .sort();
}

/** The byte offset of the last character of message `id` where its `messages` entry names it. */
function entryIdEnd(line: Buffer, id: string): number {
  const at = line.indexOf(`"c":"messages","id":"${id}"`);
  expect(at).toBeGreaterThan(0);
  return at + `"c":"messages","id":"`.length + id.length - 1;
}

describe('a damaged journal stops the start, naming the file and line (never drops an acknowledged send)', () => {
  test('a middle line of garbage', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[1]!);
    changeLine(place, () => 'garbage');
    const error = await startOn(dir);
    expect(error).toBeInstanceOf(DamagedDataError);
    expect((error as Error).message).toBe(`${place.file}:2 is damaged (not a journal line). ${REPAIR}`);
    expect(error).toMatchObject({ file: place.file, line: 2, errno: 'EBADMSG' });
  });

  test('one flipped bit in the id of a middle line, which still parses as JSON of the right shape', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[1]!);
    changeLine(place, (line) => {
      const damaged = flipBit(line, entryIdEnd(line, ids[1]!));
      JSON.parse(damaged.subarray(17).toString()); // still JSON: only the checksum can tell
      return damaged;
    });
    expect(((await startOn(dir)) as Error).message).toBe(
      `${place.file}:2 is damaged (its checksum does not match its content). ${REPAIR}`,
    );
  });

  test('one changed digit in the checksum itself', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[0]!);
    // Another hex digit, not a flipped bit: a bit flip turns 'a' or 'f' (2 checksums in 16, as the
    // random ids fall) into a non-hex byte, which is the "not a journal line" case instead.
    changeLine(place, (line) => {
      const changed = Buffer.from(line);
      changed[3] = changed[3] === 0x30 /* 0 */ ? 0x31 /* 1 */ : 0x30;
      return changed;
    });
    expect(((await startOn(dir)) as Error).message).toBe(
      `${place.file}:1 is damaged (its checksum does not match its content). ${REPAIR}`,
    );
  });

  test('a checksummed line of the wrong shape names where, never a TypeError', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const place = lineOf(ids[2]!);
    changeLine(place, () =>
      encodeJournalLine([{ c: 'messages', id: ids[2]!, v: { message: { id: ids[2] } } }]),
    );
    expect(((await startOn(dir)) as Error).message).toBe(
      `${place.file}:3 is damaged (wrong shape: [0].v.message.object: missing). ${REPAIR}`,
    );
    changeLine(place, () => '{"entries":1}');
    expect(((await startOn(dir)) as Error).message).toBe(
      `${place.file}:3 is damaged (not a journal line). ${REPAIR}`,
    );
    changeLine(place, () => '[{"c":"messages","id":7}]');
    expect(((await startOn(dir)) as Error).message).toBe(
      `${place.file}:3 is damaged (wrong shape: [0].id: expected a string). ${REPAIR}`,
    );
    changeLine(place, () => '[{"c":"keys","id":"k"}]');
    expect(((await startOn(dir)) as Error).message).toMatch(
      /:3 is damaged \(wrong shape: \[0\]\.c: expected one of messages, idempotency, deliveries, daily_sends, windows, applications, connections\)/,
    );
  });

  test('a torn last line (no newline: never acknowledged) is skipped; a whole last line of garbage is not', async () => {
    const TORN = '0123456789abcdef [{"c":"messages","id":"x","v":{"mess';
    const torn = await journaledDataDir(parent, TEXTS);
    appendFileSync(torn.lineOf(torn.ids[2]!).file, TORN);
    expect(await startOn(torn.dir)).toEqual([...torn.ids].sort());

    const whole = await journaledDataDir(parent, TEXTS);
    const { file } = whole.lineOf(whole.ids[2]!);
    appendFileSync(file, `${TORN}\n`);
    expect(((await startOn(whole.dir)) as Error).message).toBe(
      `${file}:4 is damaged (its checksum does not match its content). ${REPAIR}`,
    );
  });

  test("a flipped bit in the journal's very last newline loses nothing: that whole line still reads back", async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[2]!);
    const bytes = readFileSync(file);
    writeFileSync(file, flipBit(bytes, bytes.length - 1, 3)); // "\n" becomes "\u0002"
    expect(readFileSync(file).at(-1)).toBe(0x02);
    expect(await startOn(dir)).toEqual([...ids].sort());
  });

  test('lines of earlier versions (no checksum) still load; only their shape can be checked', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    for (const id of ids) changeLine(lineOf(id), (line) => line.subarray(17));
    expect(readFileSync(lineOf(ids[0]!).file, 'utf8')).toMatch(/^\[\{"c":"messages"/);
    expect(await startOn(dir)).toEqual([...ids].sort());
  });
});

describe('a damaged snapshot stops the start: it cannot be repaired', () => {
  const CANNOT =
    '--repair cannot rebuild a snapshot: put back a copy of it, or move it away to start from an empty state';

  test('one flipped bit anywhere after its head', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    const file = join(dir, 'state.json');
    const snapshot = readFileSync(file);
    const index = snapshot.indexOf('"journal_generation"') + 2;
    writeFileSync(file, flipBit(snapshot, index, 5));
    const error = await startOn(dir);
    expect(error).toBeInstanceOf(DamagedDataError);
    expect((error as Error).message).toBe(
      `${file} is damaged (its checksum does not match its content). ${CANNOT}`,
    );
  });

  test('one flipped bit in the name of its checksum', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    const file = join(dir, 'state.json');
    const snapshot = readFileSync(file);
    writeFileSync(file, flipBit(snapshot, snapshot.indexOf('"sha256"') + 6));
    expect(((await startOn(dir)) as Error).message).toBe(
      `${file} is damaged (wrong shape: sha257: not expected here). ${CANNOT}`,
    );
  });

  test('a snapshot of the wrong shape (an earlier version, no checksum) names where', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    const file = join(dir, 'state.json');
    const { sha256: _, ...snapshot } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...snapshot, state: { ...snapshot.state, events: {} } }));
    expect(((await startOn(dir)) as Error).message).toBe(
      `${file} is damaged (wrong shape: state.events: expected an array). ${CANNOT}`,
    );
    writeFileSync(file, JSON.stringify({ ...snapshot, state: { ...snapshot.state, messages: { m: null } } }));
    expect(((await startOn(dir)) as Error).message).toBe(
      `${file} is damaged (wrong shape: state.messages.m: expected an object). ${CANNOT}`,
    );
    writeFileSync(file, JSON.stringify({ ...snapshot, clock: { mode: 'frozen' } }));
    expect(((await startOn(dir)) as Error).message).toBe(
      `${file} is damaged (wrong shape: clock.offsetMs: missing). ${CANNOT}`,
    );
    writeFileSync(file, '[1,2]');
    expect(((await startOn(dir)) as Error).message).toBe(
      `${file} is damaged (not an emulator state file). ${CANNOT}`,
    );
    writeFileSync(file, '{"format":"parley-emulator-state",');
    expect(((await startOn(dir)) as Error).message).toBe(`${file} is damaged (not JSON). ${CANNOT}`);
  });

  test('a snapshot of an earlier version (no checksum) of the right shape loads, journals replayed', async () => {
    const { dir, ids } = await journaledDataDir(parent, TEXTS);
    const file = join(dir, 'state.json');
    const { sha256: _, ...snapshot } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify(snapshot));
    expect(await startOn(dir)).toEqual([...ids].sort());
  });

  test('a key from the file is printed without its control characters', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    const file = join(dir, 'state.json');
    const { sha256: _, ...snapshot } = JSON.parse(readFileSync(file, 'utf8'));
    const messages = { '\u001b]0;pwned\u0007': 1 };
    writeFileSync(file, JSON.stringify({ ...snapshot, state: { ...snapshot.state, messages } }));
    expect(((await startOn(dir)) as Error).message).toBe(
      `${file} is damaged (wrong shape: state.messages["\\u001b]0;pwned\\u0007"]: expected an object). ${CANNOT}`,
    );
  });
});

describe('every file read at start is bounded and must be a regular file', () => {
  test('a journal or snapshot that is a symlink to /dev/zero is refused before any read', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    rmSync(file);
    symlinkSync('/dev/zero', file);
    const error = await startOn(dir);
    expect(error).toBeInstanceOf(DataDirError);
    expect(error).toMatchObject({
      errno: 'EINVAL',
      message: `${file} is not a regular file (a character device)`,
    });
    const snapshot = join(dir, 'state.json');
    rmSync(snapshot);
    symlinkSync('/dev/zero', snapshot);
    expect(((await startOn(dir)) as Error).message).toBe(
      `${snapshot} is not a regular file (a character device)`,
    );
  });

  test('a named pipe is refused at once (opening it does not wait for a writer)', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(((await startOn(dir)) as Error).message).toBe(`${file} is not a regular file (a named pipe)`);
  });

  test('a journal one byte over the limit is refused from its size, unread', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    truncateSync(file, MAX_DATA_FILE_BYTES + 1); // sparse: nothing is written
    expect(await startOn(dir)).toMatchObject({
      errno: 'EFBIG',
      message: `${file} is larger than the 256 MiB a data file may hold (268,435,457 bytes)`,
    });
  });

  test('a symlink to a regular file is read as the file', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    const elsewhere = join(parent, `moved-${Date.now()}.ndjson`);
    writeFileSync(elsewhere, readFileSync(file));
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(await startOn(dir)).toEqual([...ids].sort());
  });
});

test('createEmulator refuses a damaged data dir synchronously, as the bin does', async () => {
  const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
  changeLine(lineOf(ids[1]!), () => 'garbage');
  expect(() => createEmulator({ dataDir: dir })).toThrow(DamagedDataError);
});
