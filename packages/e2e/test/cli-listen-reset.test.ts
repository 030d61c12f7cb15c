// `parley listen` through the built CLI while `parley emulator reset` runs (issue 24): the reset
// removes every endpoint; listen notices on the activity stream, registers its endpoint again
// with the same secret, says so, goes on forwarding, and on Ctrl-C removes the endpoint that
// exists.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { verifyWebhook, type WebhookEvent } from '@parley/sdk';
import { assertCliBuilt, runCli, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };

let server: EmulatorServer;
let configHome: string;
let env: Record<string, string>;
let app: Server;
let appUrl: string;
let secret = '';
const verified: WebhookEvent[] = [];
const refused: string[] = [];

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  configHome = await mkdtemp(join(tmpdir(), 'parley-cli-listen-reset-'));
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: configHome,
    NO_COLOR: '1',
  };
  app = createServer(async (request, response) => {
    const body = await buffer(request);
    try {
      verified.push(await verifyWebhook(body, request.headers, secret));
      response.writeHead(204).end();
    } catch (error) {
      refused.push(String(error));
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  app?.close();
  await server?.close();
  await rm(configHome, { recursive: true, force: true });
});

async function endpointIds(): Promise<string[]> {
  const { data } = await createControlClient({ baseUrl: server.url }).listEndpoints({ limit: 100 });
  return data.map((endpoint) => endpoint.id);
}

describe('parley listen and parley emulator reset', () => {
  it('registers the endpoint again with the same secret, says so, forwards, and removes it on SIGINT', async () => {
    const listening = startCli(['listen', '--forward-to', appUrl, '--events', 'webhook.test'], env);
    await listening.waitFor('Ready!');
    secret = /^Signing secret: (whsec_\w+)$/m.exec(listening.stdout())![1]!;
    const first = /\(endpoint ([0-9a-f-]{36})\)/.exec(listening.stdout())![1]!;

    const reset = await runCli(['emulator', 'reset'], env);
    expect(reset.code).toBe(0);
    await listening.waitFor('The emulator was reset');
    const again = /registered it again \(endpoint ([0-9a-f-]{36})\)/.exec(listening.stdout())![1]!;
    expect(listening.stdout().trimEnd().split('\n').at(-1)).toBe(
      `The emulator was reset, which removed endpoint ${first}: registered it again (endpoint ${again}), same secret. Still forwarding to ${appUrl}.`,
    );
    expect(await endpointIds()).toContain(again);
    expect(await endpointIds()).not.toContain(first);

    const triggered = await runCli(['trigger', 'webhook.test'], env);
    expect(triggered.stdout).toMatch(/ to 1 endpoint\.\n$/);
    await runCli(['emulator', 'clock', 'advance', '0s'], env);
    await vi.waitFor(() => expect(verified.map((event) => event.type)).toEqual(['webhook.test']), PATIENCE);
    expect(refused).toEqual([]);

    listening.child.kill('SIGINT');
    const result = await listening.exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Stopped; temporary endpoint removed.\n');
    expect(await endpointIds()).not.toContain(again);
  });
});
