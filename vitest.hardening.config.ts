import { defineConfig } from 'vitest/config';
import { packageAliases, reportersFor } from './vitest.shared';

/**
 * `pnpm test:hardening`: the standing attack suite (docs/reliability.md). Loopback only, bounded
 * in time; each file writes its figures for the reliability table through `recordFigure`.
 */
export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    include: ['packages/e2e/hardening/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    setupFiles: ['./vitest.setup.ts'],
    reporters: reportersFor('hardening'),
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
