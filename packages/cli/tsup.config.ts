import { defineConfig } from 'tsup';

// One small entry (commander + the command table) and one lazily loaded chunk per command, so
// `--version`/`--help` read a single file. The SDK, chalk, prompts and ofetch are bundled into
// the chunks; the emulator stays external and is imported only by `parley emulator start`.
export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  splitting: true,
  bundle: true,
  clean: true,
  dts: false,
  sourcemap: false,
  minify: false,
  treeshake: true,
  // The root tsconfig maps @parley/sdk to its source: the CLI bundles exactly the SDK it was tested with.
  tsconfig: '../../tsconfig.base.json',
  noExternal: [/^@parley\/sdk/, 'commander', 'chalk', '@inquirer/prompts', /^@inquirer\//, 'ofetch'],
  external: ['@parley/emulator'],
  // Bundled CommonJS dependencies (inside prompts and ofetch) call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);",
  },
});
