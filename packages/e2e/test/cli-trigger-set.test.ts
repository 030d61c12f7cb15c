// `parley trigger TYPE --set PATH=VALUE` as a process against a listening emulator.
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: '/nonexistent',
  };
});
afterAll(() => server?.close());

describe('parley trigger --set', () => {
  it('queues the event with the values set, also in the message the API returns', async () => {
    const { code, stdout } = await runCli(
      [
        'trigger',
        'message.received',
        '--set',
        'data.message.text=Where is my order?',
        '--set',
        'data.message.from=+33612345678',
        '--json',
      ],
      env,
    );
    expect(code).toBe(0);
    const event = JSON.parse(stdout);
    expect(event).toMatchObject({
      type: 'message.received',
      data: { message: { text: 'Where is my order?', from: '+33612345678' } },
    });
    const stored = await fetch(`${server.baseUrl}/messages/${event.data.message.id}`, {
      headers: { authorization: `Bearer ${server.sandboxKey}` },
    });
    expect(await stored.json()).toEqual(event.data.message);
  });

  it('refuses an unknown path before calling: exit 2 naming it, nothing emitted', async () => {
    const before = (await server.emulator.control.listEvents()).data.length;
    const { code, stdout, stderr } = await runCli(
      ['trigger', 'message.received', '--set', 'data.message.body=hi'],
      env,
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'Error: --set data.message.body cannot be set on message.received: use data.message.text, data.message.from\n',
    );
    expect((await server.emulator.control.listEvents()).data).toHaveLength(before);
  });
});
