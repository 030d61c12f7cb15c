// `parley emulator start` runs the emulator with the flags of parley-emulator, and stops cleanly.

import { assertCliBuilt, runCli, startCli } from '@parley/test-utils';
import { describe, expect, it } from 'vitest';

describe('parley emulator start', () => {
  it('starts the emulator with its own flags, serves the API, and stops on Ctrl-C with exit 0', async () => {
    assertCliBuilt();
    const emulator = startCli(['emulator', 'start', '--port', '0', '--clock', 'frozen', '--json'], {});
    await emulator.waitFor('"ready":true');
    const ready = JSON.parse(emulator.stdout().split('\n')[0]!);
    expect(ready).toMatchObject({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/) });
    const status = await runCli(
      ['status', '--json', '--base-url', ready.base_url, '--api-key', ready.sandbox_key],
      {},
    );
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ environment: 'sandbox' });
    emulator.child.kill('SIGINT');
    expect((await emulator.exited).code).toBe(0);
  });

  it('passes --help through to the emulator and reports its usage errors as exit 2', async () => {
    const help = await runCli(['emulator', 'start', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--clock/);
    const wrong = await runCli(['emulator', 'start', '--clock', 'sideways'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('parley-emulator:');
  });
});
