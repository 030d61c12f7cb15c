import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '@parley/emulator';
import { Parley, signWebhook, type WebhookEvent } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiverApp } from '../src/receiver';

const ACTIVE_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

let emulator: Emulator;
let parley: Parley;
let server: Server;
let receiverUrl: string;
let endpoint: { id: string; secret: string };
let processed: WebhookEvent[];
let failNext: number;

/** Moves emulator time (running every delivery that falls due) and waits for those HTTP attempts. */
async function settle(ms = 0): Promise<void> {
  await emulator.clock.advance(ms);
  await emulator.idle();
}

async function deliveries() {
  return (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
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
  // Listen first: the endpoint (and so its secret) needs the receiver's port.
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`;
  const { application_id } = await parley.status.get();
  endpoint = await emulator.control.createEndpoint(application_id, {
    url: receiverUrl,
    events: ['message.status_updated', 'message.received'],
  });
  const onEvent = (event: WebhookEvent) => {
    if (failNext > 0) {
      failNext--;
      throw new Error('database unavailable');
    }
    processed.push(event);
  };
  const app = createReceiverApp({
    secret: endpoint.secret,
    on: { 'message.status_updated': onEvent, 'message.received': onEvent, 'webhook.test': onEvent },
  });
  server.on('request', app);
});

afterEach(async () => {
  await emulator.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('examples/express-receiver', () => {
  it('verifies and processes each real signed delivery of a sent message', async () => {
    const message = await parley.messages.send({
      type: 'template',
      connection_id: ACTIVE_CONNECTION,
      to: '+33612345678',
      template: { name: 'hello_world', language: 'en', variables: [] },
    });

    // One step at a time: deliveries left together could arrive delivered-first, and then the
    // older `sent` is (rightly) acknowledged without being handled.
    await settle(2_000); // sent at 2 s
    await settle(3_000); // delivered at 5 s

    const statuses = processed.map((event) => event.type === 'message.status_updated' && event.data.message);
    expect(statuses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: message.id, status: 'sent' }),
        expect.objectContaining({ id: message.id, status: 'delivered' }),
      ]),
    );
    expect((await deliveries()).map((delivery) => delivery.status)).toEqual(['delivered', 'delivered']);
    expect(
      (await deliveries()).map((delivery) => delivery.attempts.map((attempt) => attempt.status_code)),
    ).toEqual([[204], [204]]);
  });

  it('answers 500 when the work throws; the id stays unrecorded and the retry is processed', async () => {
    const errors = console.error;
    console.error = () => {};
    try {
      failNext = 1;
      const event = await parley.sandbox.events.create({ type: 'message.received' });
      await settle();
      expect(processed).toEqual([]);
      expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: [{ status_code: 500 }] });
      await settle(60_000); // the first retry (DESIGN §3)
      expect(processed.map((each) => each.id)).toEqual([event.id]);
      expect((await deliveries())[0]).toMatchObject({
        status: 'delivered',
        attempts: [{ status_code: 500 }, { status_code: 204 }],
      });
    } finally {
      console.error = errors;
    }
  });

  it('answers a replayed delivery 2xx without processing the event twice', async () => {
    await parley.sandbox.events.create({ type: 'message.received' });
    await settle();
    const [first] = await deliveries();
    expect(first).toMatchObject({ status: 'delivered' });

    await emulator.control.replayDelivery(first!.id); // a new attempt series, same event id
    await settle();

    expect(await deliveries()).toEqual([
      expect.objectContaining({
        event_id: first!.event_id,
        status: 'delivered',
        attempts: [expect.objectContaining({ status_code: 204 })],
      }),
      expect.objectContaining({ id: first!.id, event_id: first!.event_id, status: 'delivered' }),
    ]);
    expect(processed).toHaveLength(1);
    expect(processed[0]).toMatchObject({
      id: first!.event_id,
      type: 'message.received',
      data: { message: { direction: 'inbound' } },
    });
  });

  it('refuses a wrong signature or a re-serialised body with 400 and processes nothing', async () => {
    const id = 'evt_0123456789abcdef0123456789abcdef';
    const body = JSON.stringify({
      api_version: '2026-10-14',
      created_at: '2026-10-14T09:30:00Z',
      data: { message: 'hi' },
      id,
      livemode: false,
      type: 'webhook.test',
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const post = async (payload: string, secret: string) =>
      fetch(receiverUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(await signWebhook({ payload: body, secret, id, timestamp })),
        },
        body: payload,
      });

    const wrongSecret = await post(body, `whsec_${'x'.repeat(32)}`);
    const reserialised = await post(JSON.stringify(JSON.parse(body), null, 2), endpoint.secret);
    const genuine = await post(body, endpoint.secret);

    expect(wrongSecret.status).toBe(400);
    expect(await wrongSecret.json()).toEqual({ error: 'signature_mismatch' });
    expect(reserialised.status).toBe(400);
    expect(genuine.status).toBe(204);
    expect(processed.map((each) => each.id)).toEqual([id]);
  });

  it('keeps verifying with the old secret during a rotation (two signatures, new first)', async () => {
    const rotated = await emulator.control.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);

    await parley.sandbox.events.create({ type: 'message.received' });
    await settle();

    expect((await deliveries())[0]?.attempts[0]?.status_code).toBe(204);
    expect(processed).toHaveLength(1);
  });
});
