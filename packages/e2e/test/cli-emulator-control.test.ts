// `parley emulator clock | clock advance | reset | status`: the built CLI against a real emulator's
// control API, found at the origin of the base URL.
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, closedPort, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = { PARLEY_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: '/nonexistent-parley-e2e' };
});
afterAll(() => server?.close());

describe('parley emulator clock', () => {
  it('shows now and the mode, human and --json', async () => {
    const json = await runCli(['emulator', 'clock', '--json'], env);
    expect(json.code).toBe(0);
    const clock = JSON.parse(json.stdout);
    expect(clock).toEqual({ now: expect.stringMatching(/Z$/), mode: 'frozen' });
    const human = await runCli(['emulator', 'clock'], env);
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout).toBe(`${clock.now} (frozen: moves only with \`parley emulator clock advance\`)\n`);
  });

  it('advance 5s, 1h, 2d, 500ms, 1h30m, 1m30s500ms moves the clock by exactly that; a message sent before is delivered', async () => {
    const sent = await runCli(
      [
        'send',
        '--connection',
        SANDBOX_ACTIVE_CONNECTION_ID,
        '--to',
        '+33612345678',
        '--text',
        'hi',
        '--json',
      ],
      { ...env, PARLEY_API_KEY: server.sandboxKey },
    );
    const { id } = JSON.parse(sent.stdout);
    let now = Date.parse(JSON.parse((await runCli(['emulator', 'clock', '--json'], env)).stdout).now);
    for (const [duration, ms] of [
      ['5s', 5_000],
      ['1h', 3_600_000],
      ['2d', 172_800_000],
      ['500ms', 500],
      ['1h30m', 5_400_000],
      ['1m30s500ms', 90_500],
    ] as const) {
      const moved = await runCli(['emulator', 'clock', 'advance', duration, '--json'], env);
      expect(moved.code, moved.stderr).toBe(0);
      expect(JSON.parse(moved.stdout)).toEqual({ now: new Date(now + ms).toISOString(), advanced_ms: ms });
      now += ms;
    }
    const human = await runCli(['emulator', 'clock', 'advance', '90s'], env);
    expect(human.stdout).toMatch(/^Clock moved 1 min 30 s: now \d{4}-/);
    const message = await runCli(['messages', 'get', id, '--json'], {
      ...env,
      PARLEY_API_KEY: server.sandboxKey,
    });
    expect(JSON.parse(message.stdout).status).toBe('delivered');
  });

  it('refuses a duration it cannot read, or one of 0 or past 366 days: exit 2 with the accepted forms', async () => {
    for (const duration of ['5', '5x', '1.5h', 'tomorrow', '30m1h']) {
      const refused = await runCli(['emulator', 'clock', 'advance', duration], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `Error: cannot read "${duration}" as a duration: use whole numbers with units from the largest (d, h, m, s, ms), e.g. 500ms, 90s, 10m, 1h30m, 2d\n`,
      );
    }
    expect(await runCli(['emulator', 'clock', 'advance', '0s'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: "0s" moves nothing: give more than 0, e.g. 1s\n',
    });
    expect(await runCli(['emulator', 'clock', 'advance', '366d1ms'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: "366d1ms" is more than a clock moves at once: at most 366d\n',
    });
    const json = await runCli(['emulator', 'clock', 'advance', '5x', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'usage_error' } });
  });
});

describe('parley emulator status and reset', () => {
  it('status shows health, clock and counts; reset takes the emulator back to its seed', async () => {
    const status = await runCli(['emulator', 'status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      emulator: server.url,
      ok: true,
      clock: { mode: 'frozen' },
      counts: {
        workspaces: 1,
        applications: 1,
        keys: 1,
        messages: expect.any(Number),
        pending_deliveries: 0,
      },
    });
    const human = await runCli(['emulator', 'status'], env);
    expect(human.stdout).toMatch(new RegExp(`^Emulator +${server.url} \\(version \\d`, 'm'));
    expect(human.stdout).toMatch(/^Health +ok$/m);
    expect(human.stdout).toMatch(/^Pending deliveries +0$/m);

    const reset = await runCli(['emulator', 'reset'], env);
    expect(reset).toEqual({
      code: 0,
      stdout: `Emulator at ${server.url} reset to its seed state\n`,
      stderr: '',
    });
    const after = JSON.parse((await runCli(['emulator', 'status', '--json'], env)).stdout);
    expect(after.counts.messages).toBe(0);
  });

  it('--base-url picks the emulator; none listening is exit 3 saying how to start one', async () => {
    const port = await closedPort();
    const result = await runCli(['emulator', 'status', '--base-url', `http://127.0.0.1:${port}/v1`], {});
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `could not reach the emulator control API at http://127.0.0.1:${port}: ECONNREFUSED`,
    );
    expect(result.stderr).toContain('parley emulator start');
  });
});
