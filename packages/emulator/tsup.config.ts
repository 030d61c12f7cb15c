import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw.ts', bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', msw: 'src/msw.ts' } },
  clean: true,
  splitting: true,
  sourcemap: false,
  external: ['msw', 'h3', 'srvx', 'undici', '@parley/sdk'],
});
