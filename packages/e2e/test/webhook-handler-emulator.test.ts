import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator, SANDBOX_ACTIVE_CONNECTION_ID } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { createWebhookHandler } from '@parley/sdk/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// createWebhookHandler's .node() on a real 127.0.0.1 server, receiving real signed deliveries from
// the in-process emulator on a frozen clock: moving the clock makes the status steps and retries.

let emulator: Emulator;
let parley: Parley;
let server: Server;
let endpoint: { id: string; secret: string };
/** What the handlers ran for, as `type status` or `type`. */
let handled: string[];
/** Statuses whose handler throws once (the first time it sees them). */
let failOnce: Set<string>;
let errors: unknown[];

/** Moves emulator time, running every delivery that falls due, and waits for those HTTP attempts. */
async function settle(ms = 0): Promise<void> {
  await emulator.clock.advance(ms);
  await emulator.idle();
}

/** Every delivery to the endpoint, newest first, as [event type, status, attempts' HTTP statuses]. */
async function deliveries(): Promise<[string, string, (number | null)[]][]> {
  return (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data.map((delivery) => [
    delivery.event_type,
    delivery.status,
    delivery.attempts.map((attempt) => attempt.status_code),
  ]);
}

function record(label: string): void {
  if (failOnce.delete(label)) throw new Error(`${label}: database unavailable`);
  handled.push(label);
}

beforeEach(async () => {
  emulator = createEmulator({ clock: 'frozen' });
  parley = new Parley({
    apiKey: emulator.sandboxKey,
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
  handled = [];
  failOnce = new Set();
  errors = [];
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { application_id } = await parley.status.get();
  endpoint = await emulator.control.createEndpoint(application_id, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`,
    events: ['message.status_updated', 'message.received'],
  });
  const handler = createWebhookHandler({
    secret: endpoint.secret,
    on: {
      'message.status_updated': (event) => record(`status ${event.data.message.status}`),
      'message.received': (event) => record(event.type),
    },
    onError: (error) => void errors.push(error),
  });
  server.on('request', handler.node());
});

afterEach(async () => {
  await emulator.close();
  await new Promise((resolve) => server.close(resolve));
});

async function sendTemplate(): Promise<void> {
  await parley.messages.send({
    type: 'template',
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: '+33612345678',
    template: { name: 'hello_world', language: 'en' },
  });
}

describe('createWebhookHandler(...).node() receiving from the emulator', () => {
  it('handles each status step of a sent message as the clock reaches it', async () => {
    await sendTemplate();
    await settle(2_000);
    expect(handled).toEqual(['status sent']);
    await settle(3_000);
    expect(handled).toEqual(['status sent', 'status delivered']);
    expect(await deliveries()).toEqual([
      ['message.status_updated', 'delivered', [204]],
      ['message.status_updated', 'delivered', [204]],
    ]);
  });

  it('answers 500 when the handler throws; the retry a minute later is handled', async () => {
    failOnce.add('message.received');
    await parley.sandbox.events.create({ type: 'message.received' });
    await settle();
    expect(handled).toEqual([]);
    expect(await deliveries()).toEqual([['message.received', 'pending', [500]]]);
    expect(errors).toEqual([new Error('message.received: database unavailable')]);

    await settle(60_000); // the first retry (DESIGN §3)
    expect(handled).toEqual(['message.received']);
    expect(await deliveries()).toEqual([['message.received', 'delivered', [500, 204]]]);
  });

  it('acknowledges a late retry of an older status without handling it', async () => {
    failOnce.add('status sent');
    await sendTemplate();
    await settle(2_000); // `sent` fails: its retry is due at 62 s
    await settle(3_000); // `delivered` arrives first
    expect(handled).toEqual(['status delivered']);

    await settle(57_000); // the retry of `sent`: older than `delivered`, so 204 without the handler
    expect(handled).toEqual(['status delivered']);
    expect(await deliveries()).toEqual([
      ['message.status_updated', 'delivered', [204]],
      ['message.status_updated', 'delivered', [500, 204]],
    ]);
  });

  it('acknowledges a replayed delivery without handling the event twice', async () => {
    await parley.sandbox.events.create({ type: 'message.received' });
    await settle();
    const [first] = (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
    await emulator.control.replayDelivery(first!.id); // a new attempt series, same event id
    await settle();
    expect(handled).toEqual(['message.received']);
    expect(await deliveries()).toEqual([
      ['message.received', 'delivered', [204]],
      ['message.received', 'delivered', [204]],
    ]);
  });
});
