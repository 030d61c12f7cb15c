import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import the packages by their published names, exactly as users do (STYLE: tRPC),
// but resolve to source so no build is needed between an edit and a test run.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@parley\/sdk\/webhooks$/, replacement: fromRoot('./packages/sdk/src/webhooks/index.ts') },
      { find: /^@parley\/sdk$/, replacement: fromRoot('./packages/sdk/src/index.ts') },
      { find: /^@parley\/emulator\/msw$/, replacement: fromRoot('./packages/emulator/src/msw.ts') },
      { find: /^@parley\/emulator$/, replacement: fromRoot('./packages/emulator/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.ts', 'packages/*/test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    // CI also writes a JSON report, from which .ci/run prints a plain "N passed, N failed" line.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'node_modules/.cache/vitest-report.json' }]]
      : ['default'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
