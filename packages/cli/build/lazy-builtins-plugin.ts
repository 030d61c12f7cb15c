import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { relative } from 'node:path';
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const NAMESPACE = 'parley-builtin';

/**
 * Start-up time: `import fs from 'node:fs'` makes Node build an ES namespace of the whole
 * built-in, reading every export, and lazy getters such as `fs.promises`, `util.parseArgs` or
 * `process.report` then load modules nobody uses (measured here: ~25% of `node -e 0` for the
 * six built-ins commander and chalk import). This plugin turns each static built-in import into
 * a tiny module that takes the built-in from `process.getBuiltinModule` (Node ≥ 22.3) and reads
 * only the names that importer asked for; older Node falls back to a dynamic import.
 */
export const lazyBuiltinsPlugin: EsbuildPlugin = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (args.kind !== 'import-statement' || !isBuiltin(args.path) || args.namespace === NAMESPACE)
        return undefined;
      const specifier = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      const names = importedNames(args.importer, args.path);
      if (names === undefined) return undefined;
      // One module per importer, so esbuild inlines it there instead of sharing it as a chunk file.
      return {
        path: `${specifier}?${names.join(',')}?${relative(process.cwd(), args.importer)}`,
        namespace: NAMESPACE,
      };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      const [specifier, list = ''] = args.path.split('?') as [string, string?, string?];
      const names = list ? list.split(',') : [];
      const load = `globalThis.process.getBuiltinModule?.(${JSON.stringify(specifier)}) ?? (await import(${JSON.stringify(specifier)})).default`;
      return {
        contents: [
          `const builtin = ${load};`,
          'export default builtin;',
          ...names.map((name) => `export const ${name} = builtin.${name};`),
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * The names `importer` imports from `specifier` (`import x, { a, b as c } from '…'`), or
 * undefined for forms this plugin leaves alone (namespace imports, re-exports).
 */
function importedNames(importer: string, specifier: string): string[] | undefined {
  const source = readFileSync(importer, 'utf8');
  const quoted = `['"]${specifier.replace(/[/]/g, '\\/')}['"]`;
  if (
    new RegExp(
      `(?:import\\s*\\*|export\\s*(?:\\*|\\{[^}]*\\}))\\s*(?:as\\s+[\\w$]+\\s*)?from\\s*${quoted}`,
    ).test(source)
  ) {
    return undefined;
  }
  const names = new Set<string>();
  const pattern = new RegExp(
    `import\\s+(?!type\\b)([\\w$]+\\s*,?\\s*)?(?:\\{([^}]*)\\})?\\s*from\\s*${quoted}`,
    'g',
  );
  let found = false;
  for (const match of source.matchAll(pattern)) {
    found = true;
    for (const part of (match[2] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name && !part.trim().startsWith('type ')) names.add(name);
    }
  }
  return found ? [...names].sort() : undefined;
}
