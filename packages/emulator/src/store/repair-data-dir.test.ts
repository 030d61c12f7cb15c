import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { changeLine, flipBit, journaledDataDir } from '../_testing/journaled-data-dir';
import { testEmulator } from '../_testing/test-emulator';
import { loadDirectory } from './_load-directory';
import { DamagedDataError } from './data-dir-errors';
import { describeRepair, repairDataDir } from './repair-data-dir';

const parent = mkdtempSync(join(tmpdir(), 'parley-repair-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const TEXTS = ['one', 'two', 'three', 'four', 'five'];

/** The message ids a load of `dir` finds, sorted. */
function loadedIds(dir: string): string[] {
  const { persisted } = loadDirectory(dir);
  return Object.keys(persisted!.state.messages).sort();
}

describe('--repair keeps every readable journal line and drops the damaged ones, saying which', () => {
  test('two damaged lines: dropped, the others kept byte for byte, the journal as it was kept beside it', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    const before = readFileSync(file);
    changeLine(lineOf(ids[1]!), () => 'garbage');
    changeLine(lineOf(ids[3]!), (line) => flipBit(line, line.length - 5));
    const damaged = readFileSync(file);
    expect(() => loadDirectory(dir)).toThrow(DamagedDataError);

    const dropped = repairDataDir(dir);
    expect(dropped).toEqual([{ file, lines: [2, 4], copy: `${file}.damaged` }]);
    const lines = before.toString('utf8').split('\n');
    expect(readFileSync(file, 'utf8')).toBe(`${[lines[0], lines[2], lines[4]].join('\n')}\n`);
    expect(readFileSync(`${file}.damaged`)).toEqual(damaged);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadedIds(dir)).toEqual([ids[0], ids[2], ids[4]].sort());
    expect(describeRepair(dir, dropped)).toEqual([
      `--repair dropped 2 damaged lines of ${file} (lines 2, 4); the journal as it was is kept in ${file}.damaged`,
    ]);

    expect(repairDataDir(dir)).toEqual([]);
    expect(describeRepair(dir, [])).toEqual([`--repair: no damaged journal line in ${dir}`]);
  });

  test('a torn last line is not damage: it is left out of the rewrite without being reported', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    changeLine(lineOf(ids[2]!), () => '[{"c":"messages"');
    appendFileSync(file, '0123456789abcdef [{"c":"mess');
    expect(repairDataDir(dir)).toEqual([{ file, lines: [3], copy: `${file}.damaged` }]);
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(5);
    expect(loadedIds(dir)).toEqual([ids[0], ids[1], ids[3], ids[4]].sort());
  });

  test('a damaged snapshot cannot be repaired: the same refusal as a start', async () => {
    const { dir } = await journaledDataDir(parent, TEXTS);
    writeFileSync(join(dir, 'state.json'), 'garbage');
    expect(() => repairDataDir(dir)).toThrow(DamagedDataError);
    expect(() => repairDataDir(dir)).toThrow(`${join(dir, 'state.json')} is damaged (not JSON).`);
  });

  test('nothing to repair in a data dir without a snapshot, or none at all', async () => {
    expect(repairDataDir(join(parent, 'missing'))).toEqual([]);
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    rmSync(join(dir, 'state.json'));
    changeLine(lineOf(ids[0]!), () => 'garbage');
    expect(repairDataDir(dir)).toEqual([]);
  });

  test('a repair cut short leaves its temporary file, which the next start removes', async () => {
    const { dir, ids, lineOf } = await journaledDataDir(parent, TEXTS);
    const { file } = lineOf(ids[0]!);
    writeFileSync(`${file}.repair.tmp`, 'half a rewrite');
    const restarted = testEmulator({ dataDir: dir });
    await restarted.emulator.ready;
    expect((await restarted.emulator.control.listMessages()).data).toHaveLength(TEXTS.length);
    expect(() => statSync(`${file}.repair.tmp`)).toThrow(/ENOENT/);
  });

  test('the report lists 20 line numbers at most', () => {
    const lines = Array.from({ length: 23 }, (_, index) => index + 1);
    expect(
      describeRepair('/d', [{ file: '/d/journal-3.ndjson', lines, copy: '/d/journal-3.ndjson.damaged' }]),
    ).toEqual([
      `--repair dropped 23 damaged lines of /d/journal-3.ndjson (lines ${lines.slice(0, 20).join(', ')} and 3 more); the journal as it was is kept in /d/journal-3.ndjson.damaged`,
    ]);
    expect(describeRepair('/d', [{ file: '/d/j', lines: [7], copy: '/d/j.damaged' }])).toEqual([
      '--repair dropped 1 damaged line of /d/j (line 7); the journal as it was is kept in /d/j.damaged',
    ]);
  });
});
