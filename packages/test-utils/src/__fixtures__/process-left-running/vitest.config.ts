import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The repository's setup file, as vitest.config.ts and vitest.hardening.config.ts use it.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['leaves-a-process.fixture.ts'],
    setupFiles: [fileURLToPath(new URL('../../../../../vitest.setup.ts', import.meta.url))],
  },
});
