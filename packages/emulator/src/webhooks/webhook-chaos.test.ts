import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { createWebhookHandler, type WebhookEvent } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createTimeline } from '../clock/create-timeline';
import { createWebhooksState, type WebhooksState } from '../store/webhook-state';
import { WebhookService } from './webhook-service';

const APP = 'a6f4a3d2-3a6e-4b8e-9d8c-1f2e3d4c5b6a';
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const T0 = Date.parse('2026-11-01T09:00:00Z');

/** What a receiver got: headers, body, and the status it answered. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  outcome: string | null;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A receiver on 127.0.0.1 built on createWebhookHandler (it refuses what it cannot verify, skips
 * duplicates), or answering `answer(index)` to the index-th request when given.
 */
async function receiver(answer?: (index: number) => number) {
  const received: Received[] = [];
  const handled: WebhookEvent[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    on: { 'connection.connected': (event) => void handled.push(event) },
  });
  const server: Server = createServer(async (request, response) => {
    const body = (await buffer(request)).toString();
    let status: number;
    let outcome: string | null = null;
    if (answer) {
      status = answer(received.length);
      response.writeHead(status).end();
    } else {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string') headers.set(name, value);
      const answered = await handler(new Request('http://127.0.0.1/', { method: 'POST', headers, body }));
      status = answered.status;
      outcome = answered.headers.get('parley-webhook-outcome');
      response.writeHead(status, { 'content-type': 'application/json' }).end(await answered.text());
    }
    received.push({ headers: request.headers, body, status, outcome });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, handled };
}

function setup() {
  const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
  const state: WebhooksState = createWebhooksState();
  const service = new WebhookService({
    getState: () => state,
    clock,
    scheduler,
    urlPolicy: 'local',
    resolveHost: async () => {
      throw new Error('no DNS in tests');
    },
  });
  cleanups.push(() => service.close());
  const step = async (ms: number) => {
    await clock.advance(ms);
    await service.idle();
  };
  const endpoint = async (url: string, chaos: Record<string, unknown>) => {
    const { id } = await service.createEndpoint(APP, {
      url,
      events: ['connection.connected'],
      secret: SECRET,
    });
    service.setChaos(id, chaos);
    return id;
  };
  const publish = () => {
    const event = {
      api_version: '2026-10-14',
      created_at: '2026-11-01T09:00:00Z',
      data: { connection: { id: 'c', name: 'Zeta' } },
      id: `evt_${randomBytes(16).toString('hex')}`,
      livemode: false,
      type: 'connection.connected',
    } as unknown as WebhookEvent;
    return service.publish(event, [APP])[0]!;
  };
  return { service, step, endpoint, publish };
}

const FORGED = ['stale_timestamp', 'tampered_body', 'wrong_secret', 'other_event_signature'] as const;

describe('webhook chaos', () => {
  it('sends forged copies before the first attempt and a duplicate after it, each marked; a right receiver refuses and deduplicates', async () => {
    const { service, step, endpoint, publish } = setup();
    const app = await receiver();
    const id = await endpoint(
      app.url,
      Object.fromEntries([...FORGED, 'duplicate'].map((kind) => [kind, { next: 1 }])),
    );
    const queued = publish();
    await step(0);

    const [delivery] = service.listDeliveries({ endpointId: id });
    expect(delivery).toMatchObject({
      status: 'delivered',
      chaos: ['duplicate', ...FORGED],
      next_attempt_at: null,
    });
    expect(
      delivery!.attempts.map(({ chaos, status_code, error }) => ({ chaos, status_code, error })),
    ).toEqual([
      ...FORGED.map((kind) => ({ chaos: kind, status_code: 400, error: null })),
      { chaos: undefined, status_code: 204, error: null },
      { chaos: 'duplicate', status_code: 204, error: null },
    ]);
    expect(app.received.map(({ status, outcome }) => [status, outcome])).toEqual([
      [400, null],
      [400, null],
      [400, null],
      [400, null],
      [204, 'processed'],
      [204, 'duplicate'],
    ]);
    expect(app.handled.map((event) => event.id)).toEqual([queued.event_id]);
    // Every copy carries the delivery's event id; the forgeries differ where their kind says.
    expect(new Set(app.received.map((each) => each.headers['parley-event-id']))).toEqual(
      new Set([queued.event_id]),
    );
    const [stale, tampered] = app.received;
    expect(Number(stale!.headers['parley-timestamp'])).toBeLessThanOrEqual(
      Math.floor(Date.now() / 1000) - 600,
    );
    expect(tampered!.body).not.toBe(app.received[4]!.body);
    expect(JSON.parse(tampered!.body).livemode).toBe(true);
    expect(app.received[5]!.body).toBe(app.received[4]!.body);
  });

  it('says when a receiver accepts a forged copy, without failing the delivery', async () => {
    const { service, step, endpoint, publish } = setup();
    const trusting = await receiver(() => 200);
    const id = await endpoint(trusting.url, { wrong_secret: { next: 1 } });
    publish();
    await step(0);
    const [delivery] = service.listDeliveries({ endpointId: id });
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts.map(({ chaos, error }) => ({ chaos, error }))).toEqual([
      {
        chaos: 'wrong_secret',
        error: 'accepted a copy signed with another secret (HTTP 200): a receiver must refuse it with a 4xx',
      },
      { chaos: undefined, error: null },
    ]);
  });

  it('never counts a chaos copy as an attempt: a failing genuine attempt is retried on the normal schedule', async () => {
    const { service, step, endpoint, publish } = setup();
    // Refuses the four forged copies, fails the genuine attempt once, then accepts.
    const app = await receiver((index) => (index < 4 ? 400 : index === 4 ? 500 : 204));
    const id = await endpoint(app.url, Object.fromEntries(FORGED.map((kind) => [kind, { next: 1 }])));
    publish();
    await step(0);
    let [delivery] = service.listDeliveries({ endpointId: id });
    // One own attempt failed: the retry comes 60 s later (DESIGN §3, k = 1), as without chaos.
    expect(delivery).toMatchObject({
      status: 'pending',
      next_attempt_at: new Date(T0 + 60_000).toISOString(),
    });
    await step(59_999);
    expect(app.received).toHaveLength(5);
    await step(1);
    [delivery] = service.listDeliveries({ endpointId: id });
    expect(delivery!.status).toBe('delivered');
    // The retry went alone: chaos goes with a delivery's first attempt only.
    expect(delivery!.attempts.map(({ chaos, status_code }) => [chaos ?? 'own', status_code])).toEqual([
      ...FORGED.map((kind) => [kind, 400]),
      ['own', 500],
      ['own', 204],
    ]);
  });

  it('delayed holds the first attempt for its delay_ms of emulator time', async () => {
    const { service, step, endpoint, publish } = setup();
    const app = await receiver();
    const id = await endpoint(app.url, { delayed: { next: 1, delay_ms: 30_000 } });
    publish();
    await step(0);
    expect(service.listDeliveries({ endpointId: id })[0]).toMatchObject({
      status: 'pending',
      chaos: ['delayed'],
      next_attempt_at: new Date(T0 + 30_000).toISOString(),
    });
    await step(29_999);
    expect(app.received).toHaveLength(0);
    await step(1);
    expect(app.received).toHaveLength(1);
    expect(service.listDeliveries({ endpointId: id })[0]!.attempts).toEqual([
      {
        at: new Date(T0 + 30_000).toISOString(),
        status_code: 204,
        error: null,
        duration_ms: expect.any(Number),
      },
    ]);
  });

  it('out_of_order holds a delivery until a later one went, so the receiver gets them the other way round', async () => {
    const { step, endpoint, publish } = setup();
    const app = await receiver();
    await endpoint(app.url, { out_of_order: { next: 1 } });
    const first = publish();
    await step(1_000);
    expect(app.received).toHaveLength(0);
    const second = publish();
    await step(0);
    expect(app.received.map((each) => each.headers['parley-event-id'])).toEqual([
      second.event_id,
      first.event_id,
    ]);
  });

  it('out_of_order sends the held delivery after 60 s when no other comes', async () => {
    const { step, endpoint, publish } = setup();
    const app = await receiver();
    await endpoint(app.url, { out_of_order: { next: 1 } });
    publish();
    await step(59_999);
    expect(app.received).toHaveLength(0);
    await step(1);
    expect(app.received).toHaveLength(1);
  });

  it('is per endpoint, and off after clearChaos; deliveries already planned keep theirs', async () => {
    const { service, step, endpoint, publish } = setup();
    const app = await receiver();
    const id = await endpoint(app.url, { duplicate: { rate: 1 } });
    const plain = await service.createEndpoint(APP, {
      url: app.url,
      events: ['connection.connected'],
      secret: SECRET,
    });
    publish();
    service.clearChaos(id);
    publish();
    await step(0);
    expect(service.listDeliveries({ endpointId: plain.id }).map((each) => each.chaos)).toEqual([
      undefined,
      undefined,
    ]);
    expect(service.listDeliveries({ endpointId: id }).map((each) => each.chaos)).toEqual([
      undefined,
      ['duplicate'],
    ]);
    expect(service.getChaos(id)).toEqual({ endpoint_id: id, seed: null, applied: {} });
  });
});
