import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// examples/node-test-with-emulator is a node:test suite: it runs as its users run it, with
// `node --test` and Node's type stripping, on the built packages (root `pnpm test` builds first).

const root = fileURLToPath(new URL('../../../', import.meta.url));
const example = `${root}examples/node-test-with-emulator`;
const BUILT = ['packages/sdk/dist/node/index.js', 'packages/emulator/dist/index.js'];

it('examples/node-test-with-emulator passes under node --test, each test in a sandbox of its own', async () => {
  const missing = BUILT.filter((file) => !existsSync(`${root}${file}`));
  if (missing.length > 0) throw new Error(`Build first (pnpm build): missing ${missing.join(', ')}`);

  const run = await promisify(execFile)(
    process.execPath,
    ['--test', '--test-reporter=tap', 'test/order-notifications.ts'],
    { cwd: example, env: { ...process.env, NO_COLOR: '1', PARLEY_API_KEY: '', PARLEY_BASE_URL: '' } },
  ).catch((failure: { stdout?: string; stderr?: string }) => {
    throw new Error(`node --test failed:\n${failure.stdout}${failure.stderr}`);
  });

  expect(run.stdout).toMatch(/^# tests 6$/m);
  expect(run.stdout).toMatch(/^# pass 6$/m);
  expect(run.stdout).toMatch(/^# fail 0$/m);
  expect(run.stdout).toContain('ok 6 - tells a webhook receiver sent at 2 s, then delivered at 5 s');
});
