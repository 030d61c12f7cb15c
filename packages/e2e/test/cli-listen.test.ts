// `parley listen --forward-to` end to end: emulator → built CLI → a local app that verifies
// every delivery with the SDK's verifyWebhook.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
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
  // listen saves its secret per forward URL in the profile: a config home of its own.
  configHome = await mkdtemp(join(tmpdir(), 'parley-cli-listen-'));
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: configHome,
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

const control = () => createControlClient({ baseUrl: server.url });

describe('parley listen --forward-to', () => {
  it('forwards triggered and status events, verified by the app, and removes its endpoint on SIGINT', async () => {
    const listening = startCli(['listen', '--forward-to', appUrl, '--json'], env);
    await listening.waitFor('"ready":true');
    const ready = JSON.parse(listening.stdout().split('\n')[0]!);
    expect(ready).toMatchObject({
      ready: true,
      secret: expect.stringMatching(/^whsec_/),
      forward_to: appUrl,
    });
    secret = ready.secret;

    const triggered = await runCli(['trigger', 'message.received', '--json'], env);
    expect(JSON.parse(triggered.stdout)).toMatchObject({ deliveries_queued: 1 });
    await control().advanceClock(0);
    await vi.waitFor(
      () => expect(verified.map((event) => event.type)).toEqual(['message.received']),
      PATIENCE,
    );

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
      env,
    );
    await control().advanceClock(2_000);
    await vi.waitFor(() => expect(verified).toHaveLength(2), PATIENCE);
    expect(verified[1]).toMatchObject({
      type: 'message.status_updated',
      data: { message: { id: JSON.parse(sent.stdout).id, status: 'sent' } },
    });
    expect(refused).toEqual([]);

    await listening.waitFor(/"type":"message\.status_updated"/);
    const lines = listening
      .stdout()
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'message.received',
        verified: true,
        forward: expect.objectContaining({ status: 204 }),
      }),
      expect.objectContaining({
        type: 'message.status_updated',
        verified: true,
        forward: expect.objectContaining({ status: 204 }),
      }),
    ]);

    listening.child.kill('SIGINT');
    const result = await listening.exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('temporary endpoint removed');
    const endpoints = await control().listEndpoints({ applicationId: ready.application_id });
    expect(endpoints.data.map((endpoint) => endpoint.id)).not.toContain(ready.endpoint_id);
  });

  it('human mode prints the secret first and a ready line', async () => {
    const human = startCli(['listen', '--forward-to', appUrl, '--events', 'webhook.test'], env);
    await human.waitFor('Ready!');
    expect(human.stdout()).toMatch(
      /^Signing secret: whsec_\w+\nReady! Forwarding webhook\.test to http:\/\/127\.0\.0\.1:\d+\/webhooks \(endpoint [0-9a-f-]{36}\)\. Ctrl-C to stop\.\n$/,
    );
    human.child.kill('SIGTERM');
    expect((await human.exited).code).toBe(0);
  });

  it('SECRET=$(parley listen … --print-secret) exits 0 with the secret every later run signs with', async () => {
    const printed = await runCli(['listen', '--forward-to', appUrl, '--print-secret'], env);
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(printed.stdout).toMatch(/^whsec_[A-Za-z0-9]{32}\n$/);
    secret = printed.stdout.trim();
    expect((await runCli(['listen', '--forward-to', appUrl, '--print-secret'], env)).stdout).toBe(
      printed.stdout,
    );

    for (const run of [1, 2]) {
      const listening = startCli(
        ['listen', '--forward-to', appUrl, '--events', 'webhook.test', '--json'],
        env,
      );
      await listening.waitFor('"ready":true');
      expect(JSON.parse(listening.stdout().split('\n')[0]!).secret).toBe(secret);
      const before = verified.length;
      await runCli(['trigger', 'webhook.test'], env);
      await control().advanceClock(0);
      await vi.waitFor(() => expect(verified).toHaveLength(before + 1), PATIENCE);
      listening.child.kill('SIGINT');
      expect((await listening.exited).code, `run ${run}`).toBe(0);
    }
    expect(refused).toEqual([]);

    const configFile = join(configHome, 'parley', 'config.json');
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(configFile, 'utf8')).profiles.default.listen_secrets[appUrl]).toBe(
      secret,
    );
  });

  it('--secret signs with the given secret; a malformed one is exit 2', async () => {
    secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
    const listening = startCli(['listen', '--forward-to', appUrl, '--secret', secret, '--json'], env);
    await listening.waitFor('"ready":true');
    expect(JSON.parse(listening.stdout().split('\n')[0]!).secret).toBe(secret);
    listening.child.kill('SIGINT');
    expect((await listening.exited).code).toBe(0);
    const wrong = await runCli(['listen', '--forward-to', appUrl, '--secret', 'whsec_nope'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--secret must be whsec_ followed by 32 letters or digits');
  });
});
