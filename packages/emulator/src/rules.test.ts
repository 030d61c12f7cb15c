import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';
import * as rules from './rules';

const root = dirname(fileURLToPath(import.meta.url));

/** The modules `file` loads when it runs: imports and re-exports, not those of types only. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const typeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly
      : statement.isTypeOnly;
    const from = statement.moduleSpecifier;
    return !typeOnly && from && ts.isStringLiteral(from) ? [from.text] : [];
  });
}

/** Every module `file` loads, itself included, following relative imports; bare ones listed apart. */
function closure(file: string, seen = new Set<string>(), bare = new Set<string>()) {
  if (seen.has(file)) return { seen, bare };
  seen.add(file);
  for (const specifier of runtimeImports(file)) {
    if (!specifier.startsWith('.')) bare.add(specifier);
    else closure(`${relative(root, join(root, dirname(file), specifier))}.ts`, seen, bare);
  }
  return { seen, bare };
}

test('the public surface of @parley/emulator/rules is exactly this (review any change)', () => {
  expect(Object.keys(rules).sort()).toMatchInlineSnapshot(`
    [
      "ACTIVITY_STATUSES",
      "CHAOS_KINDS",
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
  expect([...seen].sort()).toEqual([
    'domain/activity-statuses.ts',
    'domain/chaos-kinds.ts',
    'domain/duration.ts',
    'rules.ts',
    'server/emulator-flags.ts',
  ]);
  // The check sees a module's imports: one that loads the SDK would be caught.
  expect(closure('domain/faults.ts').bare).toEqual(new Set(['@parley/sdk']));
});
