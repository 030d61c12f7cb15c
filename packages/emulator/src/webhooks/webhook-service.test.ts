import { createHmac } from 'node:crypto';
import { canonicalJson, type WebhookEvent } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock } from './_test-clock';
import { startReceiver, type TestReceiver } from './_test-receiver';
import { createWebhooksState, WebhookService, type WebhooksState } from './webhook-service';

const APP = 'a6f4a3d2-3a6e-4b8e-9d8c-1f2e3d4c5b6a';
const OTHER_APP = '0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49';

function statusEvent(overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  return {
    api_version: '2026-10-14',
    created_at: '2026-11-01T09:00:00.000Z',
    data: { connection: { id: 'c1', name: 'Zeta', status: 'active', phone_number: '+15550001111' } },
    id: 'evt_0123456789abcdef0123456789abcdef',
    livemode: false,
    type: 'connection.connected',
    ...overrides,
  } as WebhookEvent;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function setup(options: { attemptTimeoutMs?: number } = {}) {
  const { clock, scheduler } = createTestClock();
  let state: WebhooksState = createWebhooksState();
  let changes = 0;
  const service = new WebhookService({
    getState: () => state,
    clock,
    scheduler,
    urlPolicy: 'local',
    onChange: () => void changes++,
    resolveHost: async () => {
      throw new Error('no DNS in tests');
    },
    ...options,
  });
  cleanups.push(() => service.close());
  const step = async (ms: number) => {
    await clock.advance(ms);
    await service.idle();
  };
  return {
    service,
    clock,
    scheduler,
    step,
    changes: () => changes,
    getState: () => state,
    setState: (next: WebhooksState) => {
      state = next;
    },
  };
}

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<TestReceiver> {
  const started = await startReceiver(respond);
  cleanups.push(() => started.close());
  return started;
}

function expectedSignature(secret: string, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(body).digest('hex');
}

describe('WebhookService deliveries', () => {
  it('delivers the canonical body, signed, on the first scheduled attempt', async () => {
    const { service, step, clock } = setup();
    const hook = await receiver();
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    const event = statusEvent();
    expect(service.publish(event, [APP])).toBe(1);
    expect(hook.requests).toHaveLength(0);

    await step(0);
    expect(hook.requests).toHaveLength(1);
    const request = hook.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.body.toString('utf8')).toBe(canonicalJson(event));
    expect(request.body.toString('utf8')).not.toMatch(/\s/);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['parley-event-id']).toBe(event.id);
    expect(request.headers['parley-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    expect(request.headers['parley-signature']).toBe(
      `v1=${expectedSignature(endpoint.secret, event.id, request.headers['parley-timestamp'] as string, request.body)}`,
    );
    const [delivery] = service.listDeliveries({ endpointId: endpoint.id });
    expect(delivery).toMatchObject({
      event_id: event.id,
      event_type: 'connection.connected',
      endpoint_id: endpoint.id,
      status: 'delivered',
      next_attempt_at: null,
    });
    expect(delivery!.attempts).toEqual([
      {
        at: new Date(clock.now()).toISOString(),
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number),
      },
    ]);
  });
});
