import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '@parley/emulator';
import { Parley, signWebhook, type WebhookEvent } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver } from '../src/webhook-handler';

let emulator: Emulator;
let parley: Parley;
let server: Server;
let endpoint: { id: string; secret: string };
let handler: (request: Request) => Promise<Response>;
let processed: WebhookEvent[];
let failNext: number;

/** Moves emulator time (running every delivery that falls due), then waits for those HTTP attempts. */
async function settle(ms = 0): Promise<void> {
  await emulator.clock.advance(ms);
  await emulator.idle();
}

async function deliveries() {
  return (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
}

/** Serves a web-standard handler on node:http, as Hono's or h3's Node adapters do. */
function serve(handle: (request: Request) => Promise<Response>): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await handle(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}

function signedRequest(body: string, headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/webhooks/parley', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

beforeEach(async () => {
  emulator = createEmulator({ clock: 'frozen' });
  parley = new Parley({
    apiKey: emulator.sandboxKey,
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
  processed = [];
  failNext = 0;
  server = serve((request) => handler(request));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { application_id } = await parley.status.get();
  endpoint = await emulator.control.createEndpoint(application_id, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`,
    events: ['message.received', 'webhook.test'],
  });
  const onEvent = (event: WebhookEvent) => {
    if (failNext > 0) {
      failNext--;
      throw new Error('database unavailable');
    }
    processed.push(event);
  };
  const receiver = createReceiver({
    secret: endpoint.secret,
    on: { 'message.received': onEvent, 'webhook.test': onEvent },
  });
  handler = (request) => receiver.fetch(request);
});

afterEach(async () => {
  await emulator.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('examples/web-standard-receiver', () => {
  it('verifies a real delivery, runs the work, then answers 204', async () => {
    const event = await parley.sandbox.events.create({ type: 'message.received' });
    await settle();

    expect(processed).toEqual([expect.objectContaining({ id: event.id, type: 'message.received' })]);
    expect(await deliveries()).toEqual([
      expect.objectContaining({
        status: 'delivered',
        attempts: [expect.objectContaining({ status_code: 204 })],
      }),
    ]);
  });

  it('a handler that throws answers 500, keeps the id unrecorded, and the retry is processed', async () => {
    const errors = console.error;
    console.error = () => {};
    try {
      failNext = 1;
      const event = await parley.sandbox.events.create({ type: 'message.received' });
      await settle();
      expect(processed).toEqual([]);
      expect(await deliveries()).toEqual([
        expect.objectContaining({
          status: 'pending',
          attempts: [expect.objectContaining({ status_code: 500 })],
        }),
      ]);
      // The first retry falls due 60 s later (DESIGN §3); this time the work succeeds.
      await settle(60_000);
      expect(processed.map((processedEvent) => processedEvent.id)).toEqual([event.id]);
      expect(await deliveries()).toEqual([
        expect.objectContaining({
          status: 'delivered',
          attempts: [
            expect.objectContaining({ status_code: 500 }),
            expect.objectContaining({ status_code: 204 }),
          ],
        }),
      ]);
    } finally {
      console.error = errors;
    }
  });

  it('answers a duplicate 2xx but processes it once', async () => {
    const { event_id } = await emulator.control.testEndpoint(endpoint.id);
    await settle();
    const [first] = await deliveries();

    await emulator.control.replayDelivery(first!.id); // a new attempt series, same event id
    await settle();

    expect(
      (await deliveries()).map((delivery) => [
        delivery.event_id,
        delivery.status,
        delivery.attempts[0]?.status_code,
      ]),
    ).toEqual([
      [event_id, 'delivered', 204],
      [event_id, 'delivered', 204],
    ]);
    expect(processed.map((event) => event.id)).toEqual([event_id]);
  });

  it('answers 400 with the reason to a bad signature, a stale timestamp or missing headers', async () => {
    const id = 'evt_00112233445566778899aabbccddeeff';
    const body = JSON.stringify({
      api_version: '2026-10-14',
      created_at: '2026-10-14T09:30:00Z',
      data: { message: 'hi' },
      id,
      livemode: false,
      type: 'webhook.test',
    });
    const now = Math.floor(Date.now() / 1000);

    const wrongSecret = await handler(
      signedRequest(
        body,
        await signWebhook({ payload: body, secret: `whsec_${'y'.repeat(32)}`, id, timestamp: now }),
      ),
    );
    const stale = await handler(
      signedRequest(
        body,
        await signWebhook({ payload: body, secret: endpoint.secret, id, timestamp: now - 301 }),
      ),
    );
    const unsigned = await handler(signedRequest(body, {}));
    const genuine = await handler(
      signedRequest(body, await signWebhook({ payload: body, secret: endpoint.secret, id, timestamp: now })),
    );
    expect([wrongSecret.status, stale.status, unsigned.status, genuine.status]).toEqual([400, 400, 400, 204]);
    expect(await wrongSecret.json()).toEqual({ error: 'signature_mismatch' });
    expect(await stale.json()).toEqual({ error: 'timestamp_out_of_range' });
    expect(await unsigned.json()).toEqual({ error: 'missing_header' });
    expect(processed.map((event) => event.id)).toEqual([id]);
  });

  it('refuses other methods, and answers 404 off the webhook path', async () => {
    const response = await handler(new Request('http://127.0.0.1/webhooks/parley'));
    expect(response.status).toBe(405);
    const elsewhere = await handler(new Request('http://127.0.0.1/', { method: 'POST', body: '{}' }));
    expect(elsewhere.status).toBe(404);
  });
});
