// `parley send --wait` edges through the built CLI: waiting for `read` in the sandbox, and Ctrl-C.
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, runCli, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let env: Record<string, string>;
const SEND = ['send', '--connection', SANDBOX_ACTIVE_CONNECTION_ID, '--to', '+33612345678', '--text'];

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

async function messageCount(): Promise<number> {
  const health = await createControlClient({ baseUrl: server.url }).health();
  return health.counts.messages;
}

describe('parley send --wait', () => {
  it('read, in the sandbox: exit 2 at once, nothing sent', async () => {
    const before = await messageCount();
    const started = Date.now();
    const result = await runCli([...SEND, 'never read', '--wait', 'read', '--timeout', '60'], env);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'Error: sandbox messages stop at delivered and are never read, so --wait read would only time out: use --wait delivered\n',
    );
    expect(await messageCount()).toBe(before);
  });

  it('Ctrl-C while waiting: exit 130, saying how to follow the message', async () => {
    // Frozen clock, never moved: the message stays queued until the interrupt.
    const sending = startCli([...SEND, 'interrupt me', '--wait', '--interval', '50'], env);
    await sending.waitFor(/ queued \(/);
    const id = /([0-9a-f-]{36}) queued/.exec(sending.stderr())![1]!;
    sending.child.kill('SIGINT');
    const result = await sending.exited;
    expect(result.code).toBe(130);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      `Error: interrupted: message ${id} is not affected; follow it with \`parley messages get ${id} --watch\``,
    );
  });
});
