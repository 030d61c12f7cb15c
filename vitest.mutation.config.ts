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
    exclude: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/emulator/src/server/**',
      // They start the built bin as a process (the sandbox holds no built SDK) and test store/,
      // which is not a mutated area.
      'packages/emulator/src/store/persistence-kill.test.ts',
      'packages/emulator/src/store/seed.test.ts',
    ],
    // Each test file in a fresh module graph (vitest's default, said here because it matters):
    // a static mutant (a module-level table, an error class's name) only takes effect when its
    // module is loaded again, and cached state (key caches) must not carry one mutant into the
    // next. With `isolate: false` the run is twice as fast and such mutants falsely survive.
    isolate: true,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
