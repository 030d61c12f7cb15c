import { describe, expect, it } from 'vitest';
import { APP, connectionEvent, receiver } from '../_testing/webhook-harness';
import { createTimeline } from '../clock/create-timeline';
import { createWebhooksState } from '../store/webhook-state';
import { CHANGED, type WebhookOutcome, WebhookOutcomes } from './webhook-outcomes';
import { WebhookService } from './webhook-service';

describe('WebhookOutcomes, the one channel webhook results go out on', () => {
  it('tells its one owner each outcome in order, drops them without an owner, and refuses a second owner', () => {
    const channel = new WebhookOutcomes();
    channel.tell(CHANGED);
    const told: WebhookOutcome[] = [];
    channel.own((outcome) => told.push(outcome));
    channel.tell(CHANGED);
    channel.tell(CHANGED);
    expect(told).toEqual([{ kind: 'changed' }, { kind: 'changed' }]);
    expect(() => channel.own(() => {})).toThrow('These webhook outcomes have an owner already.');
    expect(Object.isFrozen(CHANGED)).toBe(true);
  });

  it('a delivery is told once queued, then its attempt after the change it made, as the core applies them', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: Date.parse('2026-11-01T09:00:00Z') });
    const state = createWebhooksState();
    const service = new WebhookService({
      getState: () => state,
      clock,
      scheduler,
      urlPolicy: 'local',
      resolveHost: async () => [],
    });
    const told: string[] = [];
    service.outcomes.own((outcome) =>
      told.push(outcome.kind === 'changed' ? 'changed' : `delivery ${outcome.delivery.status}`),
    );
    try {
      const target = await receiver();
      await service.createEndpoint(APP, { url: target.url, events: ['connection.connected'] });
      expect(told).toEqual(['changed']);
      service.publish(connectionEvent(), [APP]);
      expect(told).toEqual(['changed', 'delivery pending', 'changed']);
      await clock.advance(0);
      await service.idle();
      expect(told).toEqual(['changed', 'delivery pending', 'changed', 'changed', 'delivery delivered']);
    } finally {
      await service.close();
    }
  });
});
