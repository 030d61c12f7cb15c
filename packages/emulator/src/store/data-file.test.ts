import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { dataFileLines, readDataFile } from './_data-file';
import { DataDirError } from './data-dir-errors';

const parent = mkdtempSync(join(tmpdir(), 'parley-data-file-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const file = (name: string, content: string | Buffer) => {
  const path = join(parent, name);
  writeFileSync(path, content);
  return path;
};

describe('files read at start are bounded', () => {
  test('a file of exactly the limit is read; one byte more is refused from its size', () => {
    expect(readDataFile(file('at-limit', 'x'.repeat(100)), 100)).toEqual(Buffer.from('x'.repeat(100)));
    const over = file('over-limit', 'x'.repeat(101));
    expect(() => readDataFile(over, 100)).toThrow(DataDirError);
    expect(() => readDataFile(over, 100)).toThrow(
      `${over} is larger than the 100 bytes a data file may hold (101 bytes)`,
    );
    expect(() => [...dataFileLines(over, 100)]).toThrow(`${over} is larger than the 100 bytes`);
  });

  test('a regular file longer than its size says (procfs) is refused once the limit is passed', (context) => {
    if (!existsSync('/proc/self/status')) context.skip('no /proc here');
    expect(() => readDataFile('/proc/self/status', 16)).toThrow(
      '/proc/self/status is larger than the 16 bytes a data file may hold (more was read than its size said)',
    );
  });

  test('a directory is not a regular file; a missing file is absent, not an error', () => {
    const dir = join(parent, 'a-dir');
    mkdirSync(dir);
    expect(() => readDataFile(dir)).toThrow(`${dir} is not a regular file (a directory)`);
    expect(readDataFile(join(parent, 'missing'))).toBeUndefined();
    expect([...dataFileLines(join(parent, 'missing'))]).toEqual([]);
  });
});

describe('dataFileLines', () => {
  test('numbers every line from 1, empty ones included; a last line without its newline is not complete', () => {
    const lines = [...dataFileLines(file('lines', 'a\n\nbb\nccc'))].map(({ bytes, number, complete }) => [
      bytes.toString(),
      number,
      complete,
    ]);
    expect(lines).toEqual([
      ['a', 1, true],
      ['', 2, true],
      ['bb', 3, true],
      ['ccc', 4, false],
    ]);
    expect([...dataFileLines(file('ends-with-newline', 'a\n'))].map((line) => line.complete)).toEqual([true]);
  });

  test('a line longer than a read chunk (1 MiB) comes back whole', () => {
    const long = 'y'.repeat(2.5 * 1024 * 1024);
    const lines = [...dataFileLines(file('long', `${long}\nz\n`))];
    expect(lines.map((line) => line.bytes.length)).toEqual([long.length, 1]);
    expect(lines[0]!.bytes.toString()).toBe(long);
  });
});
