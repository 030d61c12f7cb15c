import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';
import * as rules from './rules';

const root = dirname(fileURLToPath(import.meta.url));

/** Every module `file` loads, itself included, following relative imports; bare ones listed apart. */
function closure(file: string, seen = new Set<string>(), bare = new Set<string>()) {
  if (seen.has(file)) return { seen, bare };
  seen.add(file);
  const text = readFileSync(join(root, file), 'utf8');
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) bare.add(fileName);
    else closure(`${relative(root, join(root, dirname(file), fileName))}.ts`, seen, bare);
  }
  return { seen, bare };
}

test('the public surface of @parley/emulator/rules is exactly this (review any change)', () => {
  expect(Object.keys(rules).sort()).toMatchInlineSnapshot(`
    [
      "DURATION_EXAMPLES",
      "DURATION_UNITS",
      "EMULATOR_FLAGS",
      "MAX_ADVANCE_MS",
      "flagHelp",
      "flagSpelling",
      "formatDuration",
      "parseDuration",
      "readDuration",
    ]
  `);
});

test('@parley/emulator/rules loads no package and no Node built-in: a client pays for the rules alone', () => {
  const { seen, bare } = closure('rules.ts');
  expect([...bare]).toEqual([]);
  expect([...seen].sort()).toEqual(['domain/duration.ts', 'rules.ts', 'server/emulator-flags.ts']);
});
