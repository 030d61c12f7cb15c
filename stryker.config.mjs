// @ts-check
/**
 * StrykerJS mutation testing (docs/testing.md). `pnpm test:mutation` runs every area;
 * `pnpm test:mutation:sdk` and `pnpm test:mutation:emulator` one each, with their own
 * reports and sandbox, so two areas can run at the same time.
 */

import { MUTATION_AREAS } from './mutation-areas.mjs';

const notSource = ['!**/*.test.ts', '!**/*.test-d.ts', '!**/_test/**', '!**/_testing/**'];

/**
 * The Stryker options for one area, or for all of them.
 * @param {keyof typeof MUTATION_AREAS | 'all'} area
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function mutationConfig(area) {
  if (area !== 'all' && !Object.hasOwn(MUTATION_AREAS, area)) {
    throw new Error(`No mutation area ${area}: one of ${Object.keys(MUTATION_AREAS).join(', ')}, or all.`);
  }
  const areas = area === 'all' ? Object.values(MUTATION_AREAS) : [MUTATION_AREAS[area]];
  // The area's tests are chosen by vitest.mutation.config.ts (its `include`), told the area through
  // the environment the test runners inherit. Not by Stryker's `testFiles`: with it, Stryker 10.1
  // switches a static mutant on only after its module has loaded (stryker-js #6144), so every
  // mutant of a module-level table (fixtures, an error class's name) survived, whatever the tests.
  process.env.PARLEY_MUTATION_AREA = area;
  return {
    packageManager: 'pnpm',
    // Named, since pnpm keeps them out of the core's reach for its default `@stryker-mutator/*` scan.
    plugins: ['@stryker-mutator/vitest-runner', '@stryker-mutator/typescript-checker'],
    testRunner: 'vitest',
    // Not vitest's `related` mode: after a test runner restarts (it does after a timeout) its
    // module graph is partial, and a static mutant then ran without the tests that import its
    // file, surviving falsely. Each other mutant runs the tests that covered it anyway.
    vitest: { configFile: 'vitest.mutation.config.ts', related: false },
    // Each mutant runs only the tests that reached it in the dry run.
    coverageAnalysis: 'perTest',
    // Mutants that do not type-check are dropped before any test runs (reported as CompileError).
    // Only the two mutated packages are checked: an error anywhere in the checked program,
    // such as another package's work in progress, would mark every mutant a CompileError.
    checkers: ['typescript'],
    tsconfigFile: 'tsconfig.mutation.json',
    mutate: [...areas.flatMap((each) => each.mutate), ...notSource],
    // Not needed by the unit tests of the mutated packages: a smaller sandbox to copy. Never another
    // run's sandbox (.stryker-tmp), which may vanish while this run copies it.
    ignorePatterns: [
      'dist',
      'docs',
      'examples',
      'packages/cli',
      'packages/e2e',
      'coverage',
      '.parley-data',
      '.stryker-tmp',
      'reports',
    ],
    // Two cores, shared: pass `--concurrency 1` when others are running tests.
    concurrency: 2,
    // The SDK's timeout tests wait real (small) times; a busy machine needs some slack.
    timeoutMS: 10_000,
    tempDirName: `.stryker-tmp/${area}`,
    reporters: ['html', 'json', 'clear-text', 'progress'],
    htmlReporter: { fileName: `reports/mutation/${area}/index.html` },
    jsonReporter: { fileName: `reports/mutation/${area}/mutation.json` },
    clearTextReporter: {
      allowEmojis: false,
      logTests: false,
      reportScoreTable: true,
      reportMutants: false,
      reportTests: false,
    },
    thresholds: { high: 90, low: 80, break: null },
  };
}

export default mutationConfig('all');
