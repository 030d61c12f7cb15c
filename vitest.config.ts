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
    setupFiles: ['./vitest.setup.ts'],
    reporters: reportersFor('vitest'),
    // Upper bounds only, for a hang: never a speed assertion. A stress run (scripts/stress-tests.mjs)
    // with every core busy ran this suite 12× slower than a quiet machine (3,576 s), and 8 tests that
    // start several processes each passed in 2–4 s quiet but hit a 20 s bound there.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
