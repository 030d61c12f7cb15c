import { mkdir, writeFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';
import { buildConsoleBundle } from './src/console/console-bundle';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    msw: 'src/msw.ts',
    vitest: 'src/vitest.ts',
    rules: 'src/rules.ts',
    control: 'src/control.ts',
    bin: 'src/bin.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: {
    entry: {
      index: 'src/index.ts',
      msw: 'src/msw.ts',
      vitest: 'src/vitest.ts',
      rules: 'src/rules.ts',
      control: 'src/control.ts',
    },
  },
  clean: true,
  splitting: true,
  sourcemap: false,
  // esbuild: only the from-source path of the console needs it (console-assets.ts).
  external: ['msw', 'vitest', 'h3', 'srvx', 'undici', '@parley/sdk', 'esbuild'],
  // The browser console, bundled beside the chunks that serve it (dist/console/).
  onSuccess: async () => {
    const bundle = await buildConsoleBundle('src/console/app');
    await mkdir('dist/console', { recursive: true });
    await writeFile('dist/console/console.js', bundle.script);
    await writeFile('dist/console/console-style.css', bundle.style);
  },
});
