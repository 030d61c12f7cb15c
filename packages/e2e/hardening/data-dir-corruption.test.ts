import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshBin, listAll, startEmulatorProcess } from './_emulator-process';
import { recordFigure } from './_figures';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

const SENDS = 40;
const RANDOM_FLIPS = 16;
const FLAGS = ['--clock', 'frozen', '--rate-limits', 'off'];
const json = { 'content-type': 'application/json' };
const parent = mkdtempSync(join(tmpdir(), 'parley-hardening-corruption-'));
const base = join(parent, 'base');
let copies = 0;
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** The acknowledged sends of the base data dir: message id → its journal line (file name, text). */
const acknowledged = new Map<string, { name: string; text: string }>();

/**
 * The base data dir: the snapshot written at start, then 40 sends that got their 202, each one
 * journal line. Every later snapshot fails (`state.json` is a directory meanwhile), so the journal
 * alone holds the sends whatever the machine's speed; the process is then SIGKILLed and the
 * snapshot put back.
 */
beforeAll(async () => {
  await freshBin();
  const emulator = await startEmulatorProcess(['--data-dir', base, ...FLAGS]);
  const snapshot = join(base, 'state.json');
  const saved = readFileSync(snapshot);
  rmSync(snapshot);
  mkdirSync(snapshot);
  for (let index = 0; index < SENDS; index++) {
    const response = await fetch(`${emulator.base}/messages`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${emulator.key}`, 'idempotency-key': `corrupt-${index}` },
      body: JSON.stringify({
        connection_id: ACTIVE_CONNECTION,
        to: '+33612345678',
        type: 'text',
        text: `n°${index}`,
      }),
    });
    expect(response.status).toBe(202);
    const { id } = await response.json();
    acknowledged.set(id, { name: '', text: '' });
  }
  emulator.child.kill('SIGKILL');
  await emulator.exited;
  rmSync(snapshot, { recursive: true });
  writeFileSync(snapshot, saved, { mode: 0o600 });
  for (const name of journalNames(base)) {
    for (const text of readFileSync(join(base, name), 'utf8').split('\n')) {
      for (const [id, place] of acknowledged)
        if (text.includes(`"id":"${id}"`)) Object.assign(place, { name, text });
    }
  }
  expect([...acknowledged.values()].filter((place) => place.text === '')).toEqual([]);
}, 60_000);

function journalNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^journal-\d+\.ndjson$/.test(name))
    .sort((a, b) => Number(a.slice(8, -7)) - Number(b.slice(8, -7)));
}

/** A fresh copy of the base data dir to damage. */
function copyOfBase(): string {
  const dir = join(parent, `copy-${++copies}`);
  cpSync(base, dir, { recursive: true });
  return dir;
}

/** The journal with the most lines, its lines (without the final empty one) and its path. */
function busiestJournal(dir: string) {
  const name = journalNames(dir)
    .map((candidate) => ({ candidate, lines: readFileSync(join(dir, candidate), 'utf8').split('\n').length }))
    .sort((a, b) => b.lines - a.lines)[0]!.candidate;
  const file = join(dir, name);
  return { file, name, lines: readFileSync(file, 'latin1').split('\n').slice(0, -1) };
}

/** Writes `lines` (latin1 text, one byte a character) back as the journal `file`, each with its newline. */
const writeLines = (file: string, lines: string[]) =>
  writeFileSync(file, Buffer.from(`${lines.join('\n')}\n`, 'latin1'));

type Outcome =
  | { started: false; code: number | null; stderr: string }
  | { started: true; ids: Set<string>; stderr: string };

/** Starts the bin on `dir`: its exit code and stderr if it refuses, else the messages it loaded (then stops it). */
async function startOn(dir: string, extra: readonly string[] = []): Promise<Outcome> {
  const child = spawn(
    process.execPath,
    [await freshBin(), '--json', '--port', '0', '--data-dir', dir, ...FLAGS, ...extra],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<{ control_url: string }>((resolve) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
  });
  const first = await Promise.race([exited.then((code) => ({ code })), ready]);
  if ('code' in first) return { started: false, code: first.code, stderr };
  const messages = await listAll<{ id: string }>(first.control_url, '/messages');
  child.kill('SIGTERM');
  await exited;
  return { started: true, ids: new Set(messages.map((message) => message.id)), stderr };
}

/** The acknowledged messages whose journal line is still there, byte for byte, as a whole line. */
function intactIds(dir: string): Set<string> {
  const lines = new Map(
    journalNames(dir).map((name) => [
      name,
      new Set(readFileSync(join(dir, name), 'utf8').split('\n').slice(0, -1)),
    ]),
  );
  return new Set(
    [...acknowledged].filter(([, place]) => lines.get(place.name)?.has(place.text)).map(([id]) => id),
  );
}

const ALL = () => new Set(acknowledged.keys());
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const figures = { kinds: 0, refused: 0, repaired: 0, keptWhole: 0, lost: 0 };

/**
 * The rule under test: without --repair the damaged dir is refused (exit 2, naming `where`), never
 * started with a message missing; with --repair it starts with every message whose line is intact
 * and none it never acknowledged, and a restart without --repair then starts with the same.
 */
async function expectRefusedThenRepaired(dir: string, where: string) {
  const refused = await startOn(dir);
  expect(refused).toMatchObject({ started: false, code: 2 });
  expect(refused.stderr).toContain(`parley-emulator: could not start: ${where} is damaged (`);
  figures.refused++;
  const intact = intactIds(dir);
  const repaired = await startOn(dir, ['--repair']);
  expect(repaired.started).toBe(true);
  const ids = (repaired as { ids: Set<string> }).ids;
  for (const id of intact) expect(ids).toContain(id);
  for (const id of ids) expect(ALL()).toContain(id);
  expect(repaired.stderr).toMatch(/--repair dropped \d+ damaged lines? of /);
  figures.repaired++;
  figures.lost += ALL().size - ids.size;
  const restarted = await startOn(dir);
  expect(restarted).toMatchObject({ started: true, ids });
}

describe('a damaged data dir is refused, named, or repaired keeping every undamaged acknowledged message', () => {
  test.each([
    ['a middle line of garbage', () => 'garbage'],
    ['one flipped bit inside a JSON string', (line: string) => line.replace('"text":"n', '"text":"o')],
    [
      'one flipped bit in the checksum',
      (line: string) => `${String.fromCharCode(line.charCodeAt(0) ^ 1)}${line.slice(1)}`,
    ],
    ['a line cut short, its newline kept', (line: string) => line.slice(0, line.length >> 1)],
    ['a line of NUL bytes (a zero-filled block)', (line: string) => '\0'.repeat(line.length)],
    [
      'a line of the wrong shape with a valid checksum',
      () => {
        const body = JSON.stringify([{ c: 'messages', id: 'm', v: { message: 'x' } }]);
        return `${sha256(body).slice(0, 16)} ${body}`;
      },
    ],
  ])('journal: %s', async (_kind, damage) => {
    const dir = copyOfBase();
    const { file, lines } = busiestJournal(dir);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const middle = lines.length >> 1;
    lines[middle] = damage(lines[middle]!);
    writeLines(file, lines);
    await expectRefusedThenRepaired(dir, `${file}:${middle + 1}`);
    figures.kinds++;
  });

  test('journal: two lines merged (the newline between them flipped)', async () => {
    const dir = copyOfBase();
    const { file, lines } = busiestJournal(dir);
    const middle = lines.length >> 1;
    lines.splice(middle, 2, `${lines[middle]}\u0002${lines[middle + 1]}`);
    writeLines(file, lines);
    await expectRefusedThenRepaired(dir, `${file}:${middle + 1}`);
    figures.kinds++;
  });

  test.each([
    ['one flipped bit', (bytes: Buffer) => Buffer.from(bytes).fill(bytes[200]! ^ 4, 200, 201)],
    ['cut in half', (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    [
      'of the wrong shape, without checksum (an earlier version)',
      (bytes: Buffer) => {
        const { sha256: _, ...snapshot } = JSON.parse(bytes.toString());
        return JSON.stringify({ ...snapshot, state: { ...snapshot.state, events: {} } });
      },
    ],
  ])('snapshot %s: refused, with or without --repair', async (_kind, damage) => {
    const dir = copyOfBase();
    const file = join(dir, 'state.json');
    writeFileSync(file, damage(readFileSync(file)));
    for (const extra of [[], ['--repair']]) {
      const outcome = await startOn(dir, extra);
      expect(outcome).toMatchObject({ started: false, code: 2 });
      expect(outcome.stderr).toContain(`could not start: ${file} is damaged (`);
      figures.refused++;
    }
    figures.kinds++;
  });

  test.each([
    [
      'a symlink to /dev/zero',
      (file: string) => {
        rmSync(file);
        symlinkSync('/dev/zero', file);
      },
      'is not a regular file (a character device)',
    ],
    [
      'one byte over 256 MiB (sparse)',
      (file: string) => truncateSync(file, 256 * 1024 * 1024 + 1),
      'is larger than the 256 MiB',
    ],
  ])('journal replaced by %s: refused at once, with or without --repair', async (_kind, replace, message) => {
    const dir = copyOfBase();
    const { file } = busiestJournal(dir);
    replace(file);
    for (const extra of [[], ['--repair']]) {
      const outcome = await startOn(dir, extra);
      expect(outcome).toMatchObject({ started: false, code: 2 });
      expect(outcome.stderr).toContain(`could not start: ${file} ${message}`);
      figures.refused++;
    }
    figures.kinds++;
  });

  test(`${RANDOM_FLIPS} random single-bit flips anywhere in the snapshot or a journal`, async () => {
    let state = 21;
    // mulberry32: the same flips on every run.
    const random = () => {
      state = (state + 0x6d2b79f5) | 0;
      let value = Math.imul(state ^ (state >>> 15), 1 | state);
      value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
      return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
    };
    for (let flip = 0; flip < RANDOM_FLIPS; flip++) {
      const dir = copyOfBase();
      const files = ['state.json', ...journalNames(dir)].map((name) => join(dir, name));
      const sizes = files.map((file) => readFileSync(file).length);
      let offset = Math.floor(random() * sizes.reduce((sum, size) => sum + size, 0));
      let index = 0;
      while (offset >= sizes[index]!) offset -= sizes[index++]!;
      const file = files[index]!;
      const bytes = readFileSync(file);
      bytes[offset] = bytes[offset]! ^ (1 << Math.floor(random() * 8));
      writeFileSync(file, bytes);
      if (file.endsWith('state.json')) {
        const outcome = await startOn(dir);
        expect(outcome).toMatchObject({ started: false, code: 2 });
        expect(outcome.stderr).toContain(`could not start: ${file} is damaged (`);
        figures.refused++;
      } else if (offset === bytes.length - 1) {
        // The journal's very last newline: the line before it still reads back whole.
        expect(await startOn(dir)).toMatchObject({ started: true, ids: ALL() });
        figures.keptWhole++;
      } else {
        const line = bytes.subarray(0, offset).filter((byte) => byte === 10).length + 1;
        await expectRefusedThenRepaired(dir, `${file}:${line}`);
      }
    }
    figures.kinds++;
  }, 300_000);
});

afterAll(() => {
  if (figures.kinds === 0) return;
  recordFigure({
    test: 'persistence: damaged data dir',
    load: `${figures.kinds} kinds of damage (garbage, flipped bits, cut and NUL-filled lines, wrong shapes, merged lines, a damaged snapshot, /dev/zero, an oversized file, ${RANDOM_FLIPS} random bit flips) to a data dir of ${SENDS} acknowledged sends`,
    proved:
      'a damaged data dir never starts with an acknowledged message missing: it is refused (exit 2, naming file and line) or, with --repair, starts with every message whose journal line is intact',
    figures: `${figures.refused} refusals, ${figures.repaired} repairs, ${figures.keptWhole} damaged last newlines read whole; ${figures.lost} messages lost, all in damaged lines`,
  });
});
