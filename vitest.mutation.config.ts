import { defineConfig } from 'vitest/config';
import { MUTATION_AREAS } from './mutation-areas.mjs';
import { packageAliases } from './vitest.shared';

/** The unit tests of one mutation area, or of all of them. */
function testFilesOf(area: string | undefined): string[] {
  const areas = Object.entries(MUTATION_AREAS);
  return areas.flatMap(([name, each]) =>
    area === undefined || area === 'all' || area === name ? each.tests : [],
  );
}

/**
 * The tests StrykerJS runs against each mutant (`pnpm test:mutation`, docs/testing.md): the
 * unit tests of the mutated packages only. No type tests (the TypeScript checker already
 * drops mutants that do not compile), no e2e or built-dist tests, no server tests that spawn
 * processes: a mutant must be killed by the package's own tests, and fast.
 */
export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    // The tests of the area being mutated (stryker.config.mjs sets the variable), or of every area.
    include: testFilesOf(process.env.PARLEY_MUTATION_AREA),
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Each test file in a fresh module graph (vitest's default, said here because it matters):
    // a static mutant (a module-level table, an error class's name) only takes effect when its
    // module is loaded again, and cached state (key caches) must not carry one mutant into the
    // next. With `isolate: false` the run is twice as fast and such mutants falsely survive.
    isolate: true,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
