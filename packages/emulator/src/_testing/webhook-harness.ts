/** Shared set-up of the webhook tests: a frozen clock, in-memory state, real local receivers. */
import { createHmac, randomBytes } from 'node:crypto';
import type { Connection, WebhookEvent } from '@parley/sdk';
import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, expect } from 'vitest';
import { createTimeline } from '../clock/create-timeline';
import { createWebhooksState, type WebhooksState } from '../store/webhook-state';
import type { DeliveryNetwork } from '../webhooks/delivery-attempt';
import type { HostResolver } from '../webhooks/url-policy';
import { WebhookService } from '../webhooks/webhook-service';

export const APP = 'a6f4a3d2-3a6e-4b8e-9d8c-1f2e3d4c5b6a';
export const OTHER_APP = '0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49';

export const CONNECTION: Connection = {
  object: 'connection',
  id: '5b1f0c8e-2a4d-4e7b-9c3f-8d6e5a4b3c21',
  status: 'active',
  phone_number: '+15550001111',
  name: 'Zeta Café',
  quality_rating: 'GREEN',
  waba_id: '1029384756',
  livemode: false,
  created_at: '2026-11-01T08:00:00.000Z',
};

export function connectionEvent(
  type: 'connection.connected' | 'connection.disconnected' = 'connection.connected',
): WebhookEvent {
  return {
    api_version: '2026-10-14',
    created_at: '2026-11-01T09:00:00.000Z',
    data: { connection: CONNECTION },
    id: `evt_${randomBytes(16).toString('hex')}`,
    livemode: false,
    type,
  };
}

export const deliveryOf = (service: WebhookService, endpointId: string) => {
  const deliveries = service.listDeliveries({ endpointId });
  expect(deliveries).toHaveLength(1);
  return deliveries[0]!;
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

export function setup(
  options: {
    attemptTimeoutMs?: number;
    urlPolicy?: 'local' | 'strict';
    resolveHost?: HostResolver;
    network?: DeliveryNetwork;
  } = {},
) {
  const { clock, scheduler } = createTimeline({ mode: 'frozen', now: Date.parse('2026-11-01T09:00:00Z') });
  let state: WebhooksState = createWebhooksState();
  let changes = 0;
  const service = new WebhookService({
    getState: () => state,
    clock,
    scheduler,
    urlPolicy: options.urlPolicy ?? 'local',
    resolveHost:
      options.resolveHost ??
      (async () => {
        throw new Error('no DNS in tests');
      }),
    ...(options.network === undefined ? {} : { network: options.network }),
    ...(options.attemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: options.attemptTimeoutMs }),
  });
  service.outcomes.own((outcome) => {
    if (outcome.kind === 'changed') changes++;
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

export async function receiver(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
  const started = await startReceiver(...args);
  cleanups.push(() => started.close());
  return started;
}

export function expectedSignature(secret: string, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(body).digest('hex');
}
