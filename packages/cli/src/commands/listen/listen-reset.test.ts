// `parley listen` across an emulator reset, and the times it prints (issue 24).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { verifyWebhook, type WebhookEvent } from '@parley/sdk';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { trigger } from '../trigger/index';
import { listen } from './index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };
const ORIGIN = 'http://127.0.0.1:4010';

/** A local app that verifies each delivery with `secret()`. */
async function startApp(secret: () => string) {
  const verified: WebhookEvent[] = [];
  const refused: string[] = [];
  const server = createServer(async (request, response) => {
    const raw = await buffer(request);
    try {
      verified.push(await verifyWebhook(raw, request.headers, secret()));
      response.writeHead(204).end();
    } catch (error) {
      refused.push(String(error));
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, verified, refused, close: () => server.close() };
}

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('parley listen across an emulator reset', () => {
  const configHome = mkdtempSync(join(tmpdir(), 'parley-listen-reset-'));
  const { emulator, context } = emulatorContext({}, { XDG_CONFIG_HOME: configHome });
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await emulator.fetch(
      new Request(`${ORIGIN}/_emulator/${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
    );
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
  };
  const endpointIds = async (applicationId: string) =>
    (
      (await control('GET', `endpoints?application_id=${applicationId}`)) as { data: { id: string }[] }
    ).data.map((endpoint) => endpoint.id);
  afterAll(async () => {
    await emulator.close();
    rmSync(configHome, { recursive: true, force: true });
  });
  let controller: AbortController;
  beforeEach(() => {
    controller = new AbortController();
  });
  afterEach(() => controller.abort());

  it('registers its endpoint again with the same secret, says so, and forwards as before', async () => {
    let secret = '';
    const app = await startApp(() => secret);
    const run = context({ json: true, signal: controller.signal });
    const listening = listen({ forwardTo: app.url, events: 'webhook.test' }, run).catch((error) => error);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    const ready = jsonLines(run.stdout.text())[0]!;
    secret = ready.secret as string;

    // A workspace's reset keeps endpoints: not one to act on. The global one after it is.
    await control('POST', 'workspaces/a7e1c0de-0000-4000-8000-000000000001/reset', {});
    await control('POST', 'reset', {});
    await vi.waitFor(() => expect(run.stdout.text()).toContain('registered_again'), PATIENCE);
    const again = jsonLines(run.stdout.text())[1]!;
    expect(again).toEqual({
      registered_again: true,
      reason: 'reset',
      endpoint_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      previous_endpoint_id: ready.endpoint_id,
      secret,
    });
    expect(await endpointIds(ready.application_id as string)).toContain(again.endpoint_id);

    await trigger({ eventType: 'webhook.test' }, context());
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(app.verified).toHaveLength(1), PATIENCE);
    expect(app.refused).toEqual([]);

    controller.abort();
    expect(await listening).toEqual({ endpoint_id: again.endpoint_id, deliveries: 1 });
    expect(jsonLines(run.stdout.text()).filter((line) => line.registered_again)).toHaveLength(1);
    expect(run.stderr.text()).toBe('Stopped; temporary endpoint removed.\n');
    expect(await endpointIds(ready.application_id as string)).not.toContain(again.endpoint_id);
    app.close();
  });

  it('in human mode, one line says the reset and the new endpoint', async () => {
    const app = await startApp(() => '');
    const run = context({ signal: controller.signal });
    const listening = listen({ forwardTo: app.url }, run).catch((error) => error);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('Ready!'), PATIENCE);
    const first = /\(endpoint ([0-9a-f-]{36})\)/.exec(run.stdout.text())![1];
    await control('POST', 'reset', {});
    await vi.waitFor(() => expect(run.stdout.text()).toContain('was reset'), PATIENCE);
    expect(run.stdout.text().trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(
        `^The emulator was reset, which removed endpoint ${first}: registered it again \\(endpoint [0-9a-f-]{36}\\), same secret\\. Still forwarding to ${app.url.replaceAll('.', '\\.')}\\.$`,
      ),
    );
    controller.abort();
    await listening;
    app.close();
  });

  it('when its application is gone after the reset: exit 3 saying why, and no endpoint claimed removed', async () => {
    const application = (await control('POST', 'applications', { name: 'temp', environment: 'sandbox' }))!;
    const { key } = (await control('POST', `applications/${application.id}/keys`, {}))! as { key: string };
    const app = await startApp(() => '');
    const run = context({
      json: true,
      signal: controller.signal,
      env: { ...run0Env(), PARLEY_API_KEY: key },
    });
    const listening = listen({ forwardTo: app.url }, run).catch((error) => error);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    await control('POST', 'reset', {});
    const failure = await listening;
    expect(failure).toMatchObject({
      code: 3,
      message: expect.stringMatching(
        /^the emulator was reset, which removed the temporary endpoint, and it could not be registered again: the emulator refused the temporary endpoint: .*\(not_found\)$/,
      ),
    });
    expect(run.stderr.text()).toBe(
      "Stopped; the emulator's reset had already removed the temporary endpoint.\n",
    );
    app.close();
  });

  function run0Env() {
    return { PARLEY_BASE_URL: `${ORIGIN}/v1`, XDG_CONFIG_HOME: configHome };
  }
});

describe('parley listen: the times of a delivery', () => {
  const configHome = mkdtempSync(join(tmpdir(), 'parley-listen-times-'));
  const { emulator, context } = emulatorContext({}, { XDG_CONFIG_HOME: configHome });
  afterAll(async () => {
    await emulator.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it("prints this machine's time (UTC) and, after an advance, the emulator's beside it", async () => {
    let secret = '';
    const app = await startApp(() => secret);
    const controller = new AbortController();
    const human = context({ signal: controller.signal });
    const listening = listen({ forwardTo: app.url, events: 'webhook.test' }, human).catch((error) => error);
    await vi.waitFor(() => expect(human.stdout.text()).toContain('Ready!'), PATIENCE);
    secret = /^Signing secret: (whsec_\w+)/.exec(human.stdout.text())![1]!;
    await emulator.clock.advance(3 * 3600_000);
    const emulatorTime = new Date(emulator.clock.now()).toISOString().slice(11, 19);
    await trigger({ eventType: 'webhook.test' }, context());
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(human.stdout.text()).toContain('→ 204'), PATIENCE);
    const line = human.stdout.text().split('\n')[2]!;
    expect(line).toMatch(
      new RegExp(
        `^(\\d\\d:\\d\\d:\\d\\d) {2}webhook\\.test {2}evt_[0-9a-f]{32} {2}✓ verified {2}\\(emulator clock ${emulatorTime}\\)$`,
      ),
    );
    controller.abort();
    await listening;
    app.close();
  });

  it('--json carries emulator_at, the emulator time of the attempt', async () => {
    let secret = '';
    const app = await startApp(() => secret);
    const controller = new AbortController();
    const run = context({ json: true, signal: controller.signal });
    const listening = listen({ forwardTo: app.url, events: 'webhook.test' }, run).catch((error) => error);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    secret = jsonLines(run.stdout.text())[0]!.secret as string;
    await emulator.clock.advance(60_000);
    const now = new Date(emulator.clock.now()).toISOString();
    await trigger({ eventType: 'webhook.test' }, context());
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(jsonLines(run.stdout.text())).toHaveLength(2), PATIENCE);
    expect(jsonLines(run.stdout.text())[1]).toMatchObject({ emulator_at: now, verified: true });
    controller.abort();
    await listening;
    app.close();
  });
});
