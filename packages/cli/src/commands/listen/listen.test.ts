import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { verifyWebhook, type WebhookEvent } from '@parley/sdk';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { closedPort } from '../../_test/test-context';
import { trigger } from '../trigger/index';
import { forwardDelivery } from './_forward';
import { MAX_DELIVERY_BYTES } from './_receiver';
import { listen } from './index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };

/** A local app that verifies each delivery with the SDK, like a user's receiver. */
async function startApp(secret: () => string, answer = 200) {
  const received: { event?: WebhookEvent; error?: string; headers: IncomingHttpHeaders; raw: string }[] = [];
  const server = createServer(async (request, response) => {
    const raw = (await buffer(request)).toString('utf8');
    try {
      received.push({
        event: await verifyWebhook(raw, request.headers, secret()),
        headers: request.headers,
        raw,
      });
      response.writeHead(answer).end();
    } catch (error) {
      received.push({ error: String(error), headers: request.headers, raw });
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, received, close: () => server.close() };
}

/** POSTs `size` bytes of "a" to `url` (with Content-Length, or chunked); the answer. */
function post(url: string, size: number, { chunked }: { chunked: boolean }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sending = httpRequest(url, {
      method: 'POST',
      headers: chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(size) },
    });
    sending.on('error', reject);
    sending.on('response', async (response) => {
      resolve({ status: response.statusCode!, body: (await buffer(response)).toString('utf8') });
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let left = size; left > 0; left -= chunk.length) {
      sending.write(chunk.subarray(0, Math.min(chunk.length, left)));
    }
    sending.end();
  });
}

/** Starts listen, keeping a failure as the awaited value so it never goes unhandled. */
function listenUntilAborted(...args: Parameters<typeof listen>) {
  return listen(...args).catch((error: unknown) => error);
}

describe('parley listen', () => {
  // listen saves its secret in the profile: each file gets its own config home.
  const configHome = mkdtempSync(join(tmpdir(), 'parley-listen-'));
  const { emulator, context } = emulatorContext({}, { XDG_CONFIG_HOME: configHome });
  afterAll(async () => {
    await emulator.close();
    rmSync(configHome, { recursive: true, force: true });
  });
  let controller: AbortController;
  beforeEach(() => {
    controller = new AbortController();
  });
  afterEach(() => controller.abort());

  it('forwards a triggered event unchanged to the app, which verifies it with the SDK', async () => {
    let secret = '';
    const app = await startApp(() => secret);
    const run = context({ json: true, signal: controller.signal });
    const listening = listenUntilAborted(
      { forwardTo: app.url, events: 'message.received,webhook.test' },
      run,
    );
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    const ready = JSON.parse(run.stdout.text().split('\n')[0]!);
    expect(ready).toMatchObject({
      secret: expect.stringMatching(/^whsec_/),
      events: ['message.received', 'webhook.test'],
    });
    secret = ready.secret;

    const queued = await trigger({ eventType: 'message.received' }, context());
    expect(queued.deliveries_queued).toBe(1);
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(app.received).toHaveLength(1), PATIENCE);
    expect(app.received[0]?.event).toMatchObject({ id: queued.id, type: 'message.received' });
    expect(app.received[0]?.headers['parley-signature']).toMatch(/^v1=[0-9a-f]{64}$/);

    await vi.waitFor(() => expect(run.stdout.text().trim().split('\n')).toHaveLength(2), PATIENCE);
    const line = JSON.parse(run.stdout.text().trim().split('\n')[1]!);
    expect(line).toMatchObject({
      event_id: queued.id,
      type: 'message.received',
      verified: true,
      forward: { url: app.url, status: 200, error: null },
    });

    controller.abort();
    expect(await listening).toEqual({ endpoint_id: ready.endpoint_id, deliveries: 1 });
    expect(run.stderr.text()).toContain('temporary endpoint removed');
    const endpoints = await emulator.fetch(
      new Request(`http://127.0.0.1:4010/_emulator/endpoints?application_id=${ready.application_id}`),
    );
    expect(
      ((await endpoints.json()) as { data: { id: string }[] }).data.map((endpoint) => endpoint.id),
    ).not.toContain(ready.endpoint_id);
    app.close();
  });

  it('prints the secret first, then a ready line and one line per event and answer', async () => {
    const app = await startApp(() => 'whsec_wrongwrongwrongwrongwrongwrongwr', 200);
    const run = context({ signal: controller.signal });
    const listening = listenUntilAborted({ forwardTo: app.url }, run);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('Ready!'), PATIENCE);
    expect(run.stdout.text()).toMatch(/^Signing secret: whsec_\w+\nReady! Forwarding all events to /);
    await trigger({ eventType: 'webhook.test' }, context());
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('→ 400 from'), PATIENCE);
    expect(run.stdout.text()).toMatch(/\d\d:\d\d:\d\d {2}webhook\.test {2}evt_[0-9a-f]{32} {2}✓ verified/);
    controller.abort();
    await listening;
    app.close();
  });

  it('answers the emulator 502 when the app is down, so the emulator retries', async () => {
    const run = context({ json: true, signal: controller.signal });
    const listening = listenUntilAborted(
      { forwardTo: `http://127.0.0.1:${await closedPort()}/webhooks`, events: 'webhook.test' },
      run,
    );
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    await trigger({ eventType: 'webhook.test' }, context());
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(run.stdout.text().trim().split('\n')).toHaveLength(2), PATIENCE);
    const line = JSON.parse(run.stdout.text().trim().split('\n')[1]!);
    expect(line.forward).toMatchObject({ status: null, error: 'ECONNREFUSED' });
    controller.abort();
    await listening;
  });

  it('answers 413 to a body over 1 MiB, declared or chunked, without handling it, and says so on stderr', async () => {
    const app = await startApp(() => 'whsec_wrongwrongwrongwrongwrongwrongwr');
    const run = context({ json: true, signal: controller.signal });
    const listening = listenUntilAborted({ forwardTo: app.url }, run);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    const ready = JSON.parse(run.stdout.text().split('\n')[0]!);
    const listed = await emulator.fetch(
      new Request(`http://127.0.0.1:4010/_emulator/endpoints?application_id=${ready.application_id}`),
    );
    const { data } = (await listed.json()) as { data: { id: string; url: string }[] };
    const receiverUrl = data.find((endpoint) => endpoint.id === ready.endpoint_id)!.url;

    // Exactly the bound: handled (unsigned, so the app refuses it with its 400).
    const atLimit = await post(receiverUrl, MAX_DELIVERY_BYTES, { chunked: false });
    expect(atLimit).toEqual({ status: 400, body: '' });
    expect(app.received).toHaveLength(1);
    expect(app.received[0]!.raw).toHaveLength(MAX_DELIVERY_BYTES);

    for (const chunked of [false, true]) {
      expect(await post(receiverUrl, MAX_DELIVERY_BYTES + 1, { chunked })).toEqual({
        status: 413,
        body: '{"error":"payload_too_large"}',
      });
    }
    expect(app.received).toHaveLength(1);
    expect(run.stderr.text()).toBe(
      'Refused a request of more than 1 MiB to the listener (413): no delivery is that large\n'.repeat(2),
    );
    controller.abort();
    expect(await listening).toEqual({ endpoint_id: ready.endpoint_id, deliveries: 1 });
    app.close();
  });

  it('refuses a bad --forward-to or unknown event type (exit 2) before registering anything', async () => {
    await expect(listen({ forwardTo: 'ftp://x' }, context())).rejects.toMatchObject({ code: 2 });
    await expect(
      listen({ forwardTo: 'http://127.0.0.1:1/', events: 'nope' }, context()),
    ).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('unknown event type nope'),
    });
  });
});

describe('forwardDelivery', () => {
  /** An app answering `status` with an endless body of "a", or with headers then nothing. */
  async function startEndlessApp(status: number, { stall = false } = {}) {
    const server = createServer((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.on('error', () => {});
        if (stall) return response.flushHeaders();
        const chunk = Buffer.alloc(16 * 1024, 'a');
        const pump = () => {
          while (!response.destroyed && response.write(chunk)) {}
        };
        response.on('drain', pump);
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }

  it('reads at most 64 KiB of an endless 4xx answer, and none of an endless 2xx one', async () => {
    const refusing = await startEndlessApp(400);
    expect(await forwardDelivery(refusing.url, new Uint8Array(1), {})).toMatchObject({
      status: 400,
      error: null,
      body: `${'a'.repeat(200)}…`,
    });
    refusing.close();
    const accepting = await startEndlessApp(200);
    expect(await forwardDelivery(accepting.url, new Uint8Array(1), {})).toMatchObject({
      status: 200,
      error: null,
      body: null,
    });
    accepting.close();
  });

  it('keeps the status of an answer whose body stalls past the timeout, and says when no status came', async () => {
    const stalling = await startEndlessApp(400, { stall: true });
    expect(await forwardDelivery(stalling.url, new Uint8Array(1), {}, 200)).toMatchObject({
      status: 400,
      error: null,
      body: '',
    });
    stalling.close();
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/webhooks`;
    expect(await forwardDelivery(url, new Uint8Array(1), {}, 200)).toMatchObject({
      status: null,
      error: 'no answer within 0.2 s',
      body: null,
    });
    silent.closeAllConnections();
    silent.close();
  });
});
