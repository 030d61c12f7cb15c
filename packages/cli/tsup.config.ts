import { defineConfig, type Options } from 'tsup';
import { lazyBuiltinsPlugin } from './build/lazy-builtins-plugin';
import { runtimeImportsPlugins } from './build/runtime-imports-plugin';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];
type TsupPlugin = NonNullable<Options['plugins']>[number];

// Bundled CommonJS dependencies (inside prompts and ofetch) call require() for Node built-ins
// through esbuild's __require helper, which looks for a `require` in its own chunk: give that
// chunk one, and no other chunk the cost.
const requireWhereNeeded: TsupPlugin = {
  name: 'require-where-needed',
  renderChunk(code) {
    if (!code.includes('typeof require')) return undefined;
    const line =
      "const require = (globalThis.process.getBuiltinModule?.('node:module') ?? (await import('node:module')).default).createRequire(import.meta.url);";
    return { code: code.startsWith('#!') ? code.replace('\n', `\n${line}\n`) : `${line}\n${code}` };
  },
};

// commander imports node:child_process at the top only to run stand-alone executable
// subcommands, which parley never has; loading that built-in costs ~3 ms of every start.
const commanderWithoutChildProcess: EsbuildPlugin = {
  name: 'commander-without-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('/commander/')
        ? { path: 'child-process-stub', namespace: 'parley-stub' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'parley-stub' }, () => ({
      contents: "export default { spawn() { throw new Error('parley has no executable subcommands'); } };",
      loader: 'js',
    }));
  },
};

// `_plain-commands.ts` (part of cli.js) imports `_plain-run.ts`, which is built on its own as
// dist/plain.js: the entry's import of it stays an import of that file.
const plainRunAsItsFile: EsbuildPlugin = {
  name: 'plain-run-as-its-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/_plain-run$/ }, () => ({ path: './plain.js', external: true }));
  },
};

// What both builds share: the SDK, chalk, prompts and ofetch are bundled, and so are the emulator's
// two small import-free subpaths (`/control`, `/rules`), so the CLI runs without the emulator
// installed; the emulator itself (h3, srvx, undici) is an optional peer, imported only by
// `parley emulator start`.
function shared(extraPlugins: EsbuildPlugin[] = []): Options {
  const runtimeImports = runtimeImportsPlugins();
  return {
    format: ['esm'],
    platform: 'node',
    target: 'node22',
    bundle: true,
    sourcemap: false,
    minify: false,
    // The root tsconfig maps @parley/sdk and the emulator's subpaths to their source: the CLI bundles
    // exactly the code it was tested with.
    tsconfig: '../../tsconfig.base.json',
    noExternal: [
      /^@parley\/sdk/,
      /^@parley\/emulator\/(?:control|rules)$/,
      'commander',
      'chalk',
      '@inquirer/prompts',
      /^@inquirer\//,
      'ofetch',
    ],
    external: [/^@parley\/emulator$/],
    esbuildPlugins: [
      commanderWithoutChildProcess,
      lazyBuiltinsPlugin,
      runtimeImports.esbuild,
      ...extraPlugins,
    ],
    // Keep `node:` specifiers (Node ≥ 22 has them all); tsup's rewriting would also run before the plugin.
    removeNodeProtocol: false,
    plugins: [requireWhereNeeded, runtimeImports.tsup],
  };
}

export default defineConfig([
  // A one-file entry that answers `--version` itself, the program (commander and the command table)
  // in one chunk it imports for anything else, and one lazily loaded chunk per command.
  {
    ...shared([plainRunAsItsFile]),
    entry: { cli: 'src/cli.ts', index: 'src/index.ts' },
    splitting: true,
    // Both builds write to dist at once: this one leaves the other's file alone.
    clean: ['!plain.js'],
    // The answer types of the emulator's control API go into index.d.ts too: the emulator is optional.
    dts: { entry: { index: 'src/index.ts' }, resolve: [/^@parley\/emulator\/control$/] },
  },
  // The plain commands (status, connections list, config list…) and runCommand in one file, no
  // splitting: the entry loads this file alone for them. Split like the rest, `status --json` read
  // 13 files, and ~6 ms more of a ~90 ms bare fetch went into finding, reading and linking them
  // (issue 23). The code the other commands share with these is in the split chunks too: ~180 KB
  // more in the package.
  { ...shared(), entry: { plain: 'src/_plain-run.ts' }, splitting: false, clean: false, dts: false },
]);
