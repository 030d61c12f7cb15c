// `parley send --wait` and `messages get --watch` through the built CLI against an emulator on a
// frozen clock (issue 24): the frozen clock is said at once with the command that moves it,
// `--advance` moves it, and the magic recipient that is read can be waited for up to read.
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, runCli, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let env: Record<string, string>;
const SEND = ['send', '--connection', SANDBOX_ACTIVE_CONNECTION_ID, '--text', 'hi', '--to'];

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: '/nonexistent-parley-e2e',
  };
});
afterAll(() => server?.close());

async function clockNow(): Promise<number> {
  const clock = await createControlClient({ baseUrl: server.url }).getClock();
  return Date.parse(clock.now);
}

describe('parley send --wait on a frozen clock', () => {
  it('says at once that the clock is frozen and how to move it, before any move', async () => {
    const sending = startCli([...SEND, '+33612345678', '--wait', '--interval', '200'], env);
    await sending.waitFor('frozen');
    const id = /([0-9a-f-]{36}) queued/.exec(sending.stderr())![1]!;
    expect(sending.stderr().split('\n')).toContain(
      `The emulator's clock is frozen, so message ${id} stays queued until it moves: run \`parley emulator clock advance 5s\` in another terminal, or send with --wait --advance to have it moved`,
    );
    // The command it names moves it: the waiting send ends delivered.
    const moved = await runCli(['emulator', 'clock', 'advance', '5s'], env);
    expect(moved.code).toBe(0);
    const result = await sending.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Status\s+delivered$/m);
  });

  it('--advance moves the clock itself, 5 s for delivered, and says so', async () => {
    const before = await clockNow();
    const result = await runCli([...SEND, '+33612345678', '--wait', '--advance'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Status\s+delivered$/m);
    expect(result.stderr).not.toContain('frozen');
    expect(result.stderr.trimEnd().split('\n').slice(-2)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36} queued → sent → delivered \(\d+\.\d s\)$/),
      "Moved the emulator's clock 5 s",
    ]);
    expect((await clockNow()) - before).toBe(5_000);
  });

  it('--wait read to the magic recipient that is read: not refused, it ends read (10 s moved)', async () => {
    const before = await clockNow();
    const result = await runCli([...SEND, '+15550101002', '--wait', 'read', '--advance', '--json'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ to: '+15550101002', status: 'read' });
    expect((await clockNow()) - before).toBe(10_000);
  });

  it('--advance without --wait is exit 2, nothing sent', async () => {
    const result = await runCli([...SEND, '+33612345678', '--advance'], env);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      "Error: --advance moves the emulator's clock while --wait follows the message: add --wait\n",
    );
  });
});

describe('parley messages get --watch', () => {
  it('follows a message to the magic recipient that is read past delivered, to read', async () => {
    const sent = await runCli([...SEND, '+15550101002', '--json'], env);
    const { id } = JSON.parse(sent.stdout) as { id: string };
    await runCli(['emulator', 'clock', 'advance', '5s'], env);
    const watching = startCli(['messages', 'get', id, '--watch', '--interval', '200'], env);
    await watching.waitFor('frozen');
    expect(watching.stderr().split('\n')).toContain(
      `The emulator's clock is frozen, so message ${id} stays delivered until it moves: run \`parley emulator clock advance 5s\` in another terminal`,
    );
    await runCli(['emulator', 'clock', 'advance', '5s'], env);
    const result = await watching.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Status\s+read$/m);
  });
});
