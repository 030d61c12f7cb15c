import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One emulator for the whole run (test/global-setup.ts), eight worker threads sharing it: each
// test file takes a workspace with its own frozen clock, so no file can move another's time.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'threads',
    maxWorkers: 8,
    testTimeout: 20_000,
  },
});
