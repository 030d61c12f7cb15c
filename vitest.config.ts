import { defineConfig } from 'vitest/config';
import { packageAliases, reportersFor } from './vitest.shared';

export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
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
