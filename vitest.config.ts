import { defineConfig } from 'vitest/config';
import { packageAliases, reportersFor } from './vitest.shared';

export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    // That example runs with its own config (one emulator in a globalSetup, 8 workers): pnpm test:examples.
    exclude: ['**/node_modules/**', '**/dist/**', 'examples/parallel-workspaces/**'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.ts', 'packages/*/test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    reporters: reportersFor('vitest'),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
