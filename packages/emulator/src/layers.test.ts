import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * The rule of the arrows (STYLE 13, docs/architecture.md): each folder imports only from its own
 * folder and the ones before it. `domain/` and `clock/` are pure: besides their own folder, only
 * `@parley/sdk` and Node built-ins. The wiring (`create-emulator.ts`, `version.ts`, directly in
 * `src/`) assembles the layers, `server/` runs that on a socket, `sandbox/` gives a test its own
 * corner of an assembled emulator, and the entry points (`index.ts`, `bin.ts`, `msw.ts`,
 * `vitest.ts`) may import anything. Some arrows that point down are still refused: the routes
 * reach state only through `core/`, never `store/` directly.
 */
const LAYERS: Record<string, number> = {
  domain: 0,
  clock: 0,
  store: 1,
  webhooks: 2,
  core: 3,
  http: 4,
  console: 4,
  'control-client': 4,
  '': 5,
  server: 6,
  sandbox: 7,
};
const PURE = new Set(['domain', 'clock']);
/** Arrows that point down but skip a layer that owns the way: the routes go through `core/`. */
const SKIPS: Record<string, readonly string[]> = { http: ['store'], console: ['store'] };
const ENTRY_POINTS = new Set(['index.ts', 'bin.ts', 'msw.ts', 'vitest.ts', 'rules.ts', 'control.ts']);
/**
 * Folders that take only types from the layers below: the typed control client runs in browsers
 * and in clients of a running emulator, so it carries no emulator code.
 */
const TYPES_ONLY = new Set(['control-client']);
/** The wiring, directly in src/: the layer that assembles the others (`''` in {@link LAYERS}). */
const WIRING = new Set(['create-emulator.ts', 'version.ts']);
/** Test support that assembles a whole emulator; tests of any layer may drive it. */
const TEST_SUPPORT = '_testing';
const SOURCE = /\.tsx?$/;
const TEST = /\.test(-d)?\.tsx?$/;

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [relative(root, path).split(sep).join('/')] : [];
  });
}

/** Every module a file imports: static, type-only, re-exports and dynamic `import()`. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}

/** The modules a file's build still imports: imports and re-exports other than `import type` / `export type`. */
function codeImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    // `import { type A }` stays as `import {} from …` under verbatimModuleSyntax: only `import type` is erased.
    if (ts.isImportDeclaration(statement)) {
      return statement.importClause?.isTypeOnly ? [] : [(statement.moduleSpecifier as ts.StringLiteral).text];
    }
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      return [(statement.moduleSpecifier as ts.StringLiteral).text];
    }
    return [];
  });
}

/** The folder under src/ a file is in (`''` for a file at the root of src/). */
function folderOfFile(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : '';
}

/** The folder under src/ a relative import lands in (`''` for a file at the root of src/). */
function folderOf(file: string, specifier: string): string {
  const target = relative(root, join(root, dirname(file), specifier))
    .split(sep)
    .join('/');
  return target.includes('/') ? target.slice(0, target.indexOf('/')) : '';
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

/** Why `file` may not import `specifier`, or undefined when the arrow points the right way. */
function violation(file: string, specifier: string): string | undefined {
  const folder = folderOfFile(file);
  const isTest = TEST.test(file);
  if (!specifier.startsWith('.')) {
    if (PURE.has(folder) && !isTest && !isBuiltin(specifier) && specifier !== '@parley/sdk') {
      return `${folder}/ is pure: it may import @parley/sdk and Node built-ins, not ${specifier}`;
    }
    return undefined;
  }
  const target = folderOf(file, specifier);
  if (target === folder) return undefined;
  // The package's own manifest (the version, read at build time) is data, not a layer.
  if (target === '..' && specifier.endsWith('/package.json')) return undefined;
  if (isTest && (target === TEST_SUPPORT || target === '')) return undefined;
  if (PURE.has(folder)) return `${folder}/ is pure: it may not import ${target || 'src'}/`;
  const from = LAYERS[folder];
  const to = LAYERS[target];
  if (from === undefined || to === undefined) return `${target || 'src'}/ is no layer below ${folder}/`;
  if (to > from) return `${folder || 'src'}/ may not import ${target || 'src'}/, a layer above it`;
  if (SKIPS[folder]?.includes(target)) return `${folder}/ may not import ${target}/: it goes through core/`;
  return undefined;
}

const files = sourceFiles(root);
// Entry points and their tests (at the root of src/) may import anything; the wiring may not.
const layered = files.filter((file) => {
  const folder = folderOfFile(file);
  return folder === '' ? WIRING.has(file) : folder !== TEST_SUPPORT;
});

describe('the rule of the arrows', () => {
  test('every folder of src/ has its place in the order (a new folder must be given one)', () => {
    const folders = new Set(files.filter((file) => file.includes('/')).map((file) => file.split('/')[0]));
    const placed = new Set([...Object.keys(LAYERS), TEST_SUPPORT]);
    expect([...folders].filter((folder) => !placed.has(folder!))).toEqual([]);
    expect(files.filter((file) => !file.includes('/') && !TEST.test(file)).sort()).toEqual(
      [...ENTRY_POINTS, ...WIRING].sort(),
    );
  });

  test('no import points up', () => {
    const upArrows = layered.flatMap((file) =>
      importsOf(file).flatMap((specifier) => {
        const why = violation(file, specifier);
        return why ? [`${file} imports ${specifier}: ${why}`] : [];
      }),
    );
    expect(upArrows).toEqual([]);
  });

  test('the control client takes only types from other folders', () => {
    const codeImports = files
      .filter((file) => TYPES_ONLY.has(folderOfFile(file)) && !TEST.test(file))
      .flatMap((file) =>
        codeImportsOf(file)
          .filter((specifier) => !specifier.startsWith('./'))
          .map((specifier) => `${file} imports code from ${specifier}`),
      );
    expect(codeImports).toEqual([]);
    // The check tells type imports from code imports.
    expect(importsOf('control-client/create-control-client.ts')).toContain('../core/control-types');
    expect(codeImportsOf('control-client/create-control-client.ts')).toEqual(['./_control-request']);
  });

  test('the check sees the imports (it would catch an up-arrow)', () => {
    expect(layered.length).toBeGreaterThan(100);
    expect(importsOf('core/send-message.ts')).toContain('../domain/send-outcome');
    expect(violation('store/state.ts', '../webhooks/webhook-service')).toMatch(/layer above/);
    expect(violation('domain/records.ts', '../store/state')).toMatch(/pure/);
    expect(violation('clock/create-timeline.ts', 'h3')).toMatch(/pure/);
    expect(violation('http/create-app.ts', '../core/control')).toBeUndefined();
    expect(violation('http/_v1-pipeline.ts', '../store/data-dir-errors')).toMatch(/goes through core/);
    expect(violation('console/console-page.ts', '../store/state')).toMatch(/goes through core/);
    expect(violation('create-emulator.ts', './server/start-server')).toMatch(/layer above/);
    expect(violation('server/run-cli.ts', '../create-emulator')).toBeUndefined();
    expect(violation('core/control.ts', '../create-emulator')).toMatch(/layer above/);
    expect(importsOf('create-emulator.ts')).toContain('./http/create-app');
  });
});
