import { after, test } from 'node:test';
import { createEmulator, createSandbox, type Sandbox, type SandboxOptions } from '@parley/emulator';

/**
 * `node:test` has no fixtures, so this does by hand what `@parley/emulator/vitest` does: one
 * emulator for the test file (node runs each file in its own process), closed after its last test,
 * and a sandbox of its own for each test, disposed when the test ends, passed or failed.
 *
 * @example
 * const sandboxTest = sandboxPerTest();
 * sandboxTest('is delivered 5 s later', async ({ parley, advance }) => { … });
 */
export function sandboxPerTest(options: SandboxOptions = {}) {
  const emulator = createEmulator({ clock: 'frozen' });
  after(() => emulator.close());
  return (name: string, body: (sandbox: Sandbox) => Promise<void>) =>
    test(name, async (context) => {
      const sandbox = await createSandbox(emulator, { name: context.name, ...options });
      try {
        await body(sandbox);
      } finally {
        await sandbox.dispose();
      }
    });
}
