// `parley listen` through the built CLI says what its temporary endpoint is (issue 24): the
// endpoint's description is `parley listen → <forward url>`, also once registered again after a
// reset, and cut to the emulator's 200 characters when the forward URL is long.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient, type EndpointView } from '@parley/emulator/control';
import { assertCliBuilt, runCli, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let configHome: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  configHome = await mkdtemp(join(tmpdir(), 'parley-cli-listen-description-'));
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: configHome,
    NO_COLOR: '1',
  };
});
afterAll(async () => {
  await server?.close();
  await rm(configHome, { recursive: true, force: true });
});

async function endpoint(id: string): Promise<EndpointView | undefined> {
  const { data } = await createControlClient({ baseUrl: server.url }).listEndpoints({ limit: 100 });
  return data.find((each) => each.id === id);
}

describe('the description of the endpoint parley listen registers', () => {
  it('names the forward URL, and again on the endpoint registered after a reset', async () => {
    // Nothing is delivered here: the app need not run.
    const forwardTo = 'http://127.0.0.1:3999/webhooks';
    const listening = startCli(['listen', '--forward-to', forwardTo, '--events', 'webhook.test'], env);
    await listening.waitFor('Ready!');
    const first = /\(endpoint ([0-9a-f-]{36})\)/.exec(listening.stdout())![1]!;
    expect((await endpoint(first))?.description).toBe(`parley listen → ${forwardTo}`);

    expect((await runCli(['emulator', 'reset'], env)).code).toBe(0);
    await listening.waitFor('The emulator was reset');
    const again = /registered it again \(endpoint ([0-9a-f-]{36})\)/.exec(listening.stdout())![1]!;
    expect(again).not.toBe(first);
    expect((await endpoint(again))?.description).toBe(`parley listen → ${forwardTo}`);

    listening.child.kill('SIGINT');
    expect((await listening.exited).code).toBe(0);
  });

  it('is cut to 200 characters with … when the forward URL is longer', async () => {
    const forwardTo = `http://127.0.0.1:3999/${'a'.repeat(300)}`;
    const listening = startCli(['listen', '--forward-to', forwardTo, '--events', 'webhook.test'], env);
    await listening.waitFor('Ready!');
    const id = /\(endpoint ([0-9a-f-]{36})\)/.exec(listening.stdout())![1]!;
    const description = (await endpoint(id))?.description;
    expect(description).toBe(`${`parley listen → ${forwardTo}`.slice(0, 199)}…`);
    expect([...description!]).toHaveLength(200);
    listening.child.kill('SIGINT');
    expect((await listening.exited).code).toBe(0);
  });
});
