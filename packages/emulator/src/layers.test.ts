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
 * corner of an assembled emulator, `scenario/` runs scenario files in such corners, and the entry points (`index.ts`, `bin.ts`, `msw.ts`,
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
  // Scenario files run through a whole emulator and its sandboxes (issue 27).
  scenario: 8,
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
/** Folders that reach the emulator's data only through the operations of `core/`, never its state. */
const NO_STATE_REACH = new Set(['http', 'server', 'console', 'webhooks', 'scenario']);

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

/**
 * Where files reach into the emulator's state past `core/`: a read of the core's `state` (by any
 * name or path: `core.state`, `call.core.state`, `x['state']`, `const { state } = core`) or a
 * name, parameter or expression typed as `EmulatorState`. Types decide, not spelling, so an alias
 * of the core is caught and another object's `state` is not. `extra` adds sources by path (the
 * fixtures that prove the check), scanned in the same program.
 */
function stateReaches(files: readonly string[], extra: Readonly<Record<string, string>> = {}): string[] {
  const config = ts.readConfigFile(join(root, '../../../tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, join(root, '../../..'));
  const virtual = new Map(Object.entries(extra).map(([file, text]) => [join(root, file), text]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (path, language, ...rest) => {
    const text = virtual.get(path);
    return text === undefined
      ? getSourceFile.call(host, path, language, ...rest)
      : ts.createSourceFile(path, text, language, true);
  };
  host.fileExists = (path) => virtual.has(path) || fileExists.call(host, path);
  host.readFile = (path) => virtual.get(path) ?? readFile.call(host, path);
  const paths = [...files, ...Object.keys(extra)].map((file) => join(root, file));
  const stateFile = join(root, 'store/state.ts');
  const coreFile = join(root, 'core/emulator-core.ts');
  // Only these files, no library, no import followed: the core's and the state's types are all
  // the check needs (whatever else is unresolved types as `any`), and a whole program took 30 s.
  const program = ts.createProgram({
    rootNames: [...paths, coreFile, stateFile],
    options: { ...options, noEmit: true, noResolve: true, noLib: true, types: [] },
    host,
  });
  const checker = program.getTypeChecker();
  const declaredIn = (symbol: ts.Symbol | undefined, file: string) =>
    symbol?.declarations?.some((declaration) => declaration.getSourceFile().fileName === file) ?? false;
  const isCoreState = (symbol: ts.Symbol | undefined) =>
    symbol?.name === 'state' && declaredIn(symbol, coreFile);
  const isStateType = (node: ts.Node) => {
    const type = checker.getTypeAtLocation(node);
    return type.symbol?.name === 'EmulatorState' && declaredIn(type.symbol, stateFile);
  };
  return paths.flatMap((path) => {
    const source = program.getSourceFile(path);
    if (!source) throw new Error(`${path} is not in the program`);
    const found: string[] = [];
    const report = (node: ts.Node, what: string) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(root, path).split(sep).join('/')}:${line + 1} ${what}: ${node.getText(source)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const name = ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression;
        if (isCoreState(checker.getSymbolAtLocation(name))) {
          report(node, "reads the core's state");
        } else if (isStateType(node)) report(node, 'is typed as EmulatorState');
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const property = checker
          .getTypeAtLocation(node.parent)
          .getProperty((node.propertyName ?? node.name).getText(source));
        if (isCoreState(property)) report(node, "reads the core's state");
      } else if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && isStateType(node.name)) {
        report(node.name, 'is typed as EmulatorState');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  });
}

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

/** The file among `known` a relative import lands on (`./x` is `x.ts`, `x.tsx` or `x/index.ts`). */
function resolvedFile(known: ReadonlySet<string>, file: string, specifier: string): string | undefined {
  const target = join(dirname(file), specifier).split(sep).join('/');
  return [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, target].find((candidate) =>
    known.has(candidate),
  );
}

/**
 * The import cycles among `sources` (type-only imports count: a cycle of types is still two files
 * that cannot be read one without the other), each as its files sorted, found as the strongly
 * connected components of more than one file (Tarjan).
 */
function importCycles(
  sources: readonly string[],
  importsOfFile: (file: string) => readonly string[] = importsOf,
): string[][] {
  const within = new Set(sources);
  const edges = new Map(
    sources.map((file) => [
      file,
      importsOfFile(file).flatMap((specifier) => {
        const target = specifier.startsWith('.') ? resolvedFile(within, file, specifier) : undefined;
        return target === undefined ? [] : [target];
      }),
    ]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of sources) if (!index.has(file)) connect(file);
  return cycles;
}

describe('no import cycles', () => {
  test('no files of src/ import each other in a cycle', () => {
    expect(importCycles(files.filter((file) => !TEST.test(file)))).toEqual([]);
  });

  test('the check finds a cycle (fixture graph: the outbox, the fault table and the core as they were)', () => {
    const before: Record<string, readonly string[]> = {
      'core/emulator-core.ts': ['./_event-outbox', './fault-table', './message-timers', '../store/state'],
      'core/_event-outbox.ts': ['../domain/event-routing', './emulator-core'],
      'core/fault-table.ts': ['./_fault-index', './emulator-core'],
      'core/_fault-index.ts': ['../domain/faults'],
      'core/message-timers.ts': [],
    };
    expect(importCycles(Object.keys(before), (file) => before[file]!)).toEqual([
      ['core/_event-outbox.ts', 'core/emulator-core.ts', 'core/fault-table.ts'],
    ]);
  });
});

describe('the layers hold for data, not only imports', () => {
  const guarded = files.filter((file) => NO_STATE_REACH.has(folderOfFile(file)) && !TEST.test(file));
  const reaching = `import type { EmulatorCore } from '../core/emulator-core';
export const direct = (core: EmulatorCore) => core.state.keys;
export function nested(call: { core: EmulatorCore }) {
  const { state } = call.core;
  return state;
}
export const indexed = (alias: EmulatorCore) => alias['state'];
export const typed = (core: EmulatorCore) => Object.keys(core.state);
`;
  const clean = `import type { EmulatorCore } from '../core/emulator-core';
export const limits = (core: EmulatorCore) => core.rateLimits.enabled;
const local = { state: 'open' };
export const own = local.state;
export function view({ state }: { state: string }) {
  return state;
}
`;
  // One program for the product files and the fixtures: type-checking is the slow part.
  const reaches = stateReaches(guarded, {
    'http/__reaching-fixture.ts': reaching,
    'webhooks/__clean-fixture.ts': clean,
  });

  test('no file of http/, server/, console/ or webhooks/ reaches into the emulator state', () => {
    expect(guarded.length).toBeGreaterThan(60);
    expect(guarded).toContain('http/_v1-pipeline.ts');
    expect(reaches.filter((reach) => !reach.includes('__reaching-fixture'))).toEqual([]);
  });

  test("the check sees a reach by any path (fixture), and not another object's state", () => {
    expect(reaches.filter((reach) => reach.includes('__clean-fixture'))).toEqual([]);
    expect(reaches.filter((reach) => reach.includes('__reaching-fixture'))).toEqual([
      "http/__reaching-fixture.ts:2 reads the core's state: core.state",
      "http/__reaching-fixture.ts:4 reads the core's state: state",
      "http/__reaching-fixture.ts:7 reads the core's state: alias['state']",
      "http/__reaching-fixture.ts:8 reads the core's state: core.state",
    ]);
  });
});
