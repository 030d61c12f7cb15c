import { defineConfig } from 'vitest/config';
import { packageAliases } from './vitest.shared';

/**
 * The tests StrykerJS runs against each mutant (`pnpm test:mutation`, docs/testing.md): the
 * unit tests of the mutated packages only. No type tests (the TypeScript checker already
 * drops mutants that do not compile), no e2e or built-dist tests, no server tests that spawn
 * processes: a mutant must be killed by the package's own tests, and fast.
 */
export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    include: ['packages/sdk/src/**/*.test.ts', 'packages/emulator/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'packages/emulator/src/server/**'],
    // One worker reused across files: each mutant runs a few files, and a fresh worker per
    // file (~0.5 s) would cost more than the tests themselves.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
