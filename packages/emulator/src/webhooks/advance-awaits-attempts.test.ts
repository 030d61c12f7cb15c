import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { APP, connectionEvent, receiver, setup } from '../_testing/webhook-harness';
import { createTimeline } from '../clock/create-timeline';
import { RETRY_SCHEDULES } from '../domain/retry-schedule';
import { createWebhooksState } from '../store/webhook-state';
import { WebhookService } from './webhook-service';

// The dispatcher hands each attempt to the clock: an advance awaits the attempt (its answer, or its
// real-time timeout) before it runs later jobs. Real receivers on 127.0.0.1, a frozen clock.
const T0 = Date.parse('2026-11-01T09:00:00Z');
const DAY = 86_400_000;
const SCHEDULE_S = [0, 60, 180, 420, 900, 1_860, 3_780, 7_620, 15_300, 30_660, 52_260, 73_860];
const stamps = (seconds: readonly number[]) => seconds.map((s) => new Date(T0 + s * 1_000).toISOString());

describe('an advance awaits the delivery attempts that fall due in it', () => {
  it('a receiver that never answers: each attempt ends at its real-time timeout and one advance still walks all 12', async () => {
    const { service, clock } = setup({ attemptTimeoutMs: 250 });
    const silent = await receiver(() => {});
    const endpoint = await service.createEndpoint(APP, { url: silent.url, events: ['connection.connected'] });
    service.publish(connectionEvent(), [APP]);

    await clock.advance(DAY);

    const [delivery] = service.listDeliveries({ endpointId: endpoint.id });
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stamps(SCHEDULE_S));
    expect(delivery!.attempts.map((attempt) => attempt.error)).toEqual(
      Array(12).fill('no answer within 250 ms'),
    );
    expect(silent.requests).toHaveLength(12);
  });

  it('a receiver that advances the clock while it answers: its attempt times out, then both advances finish', async () => {
    const { service, clock } = setup({ attemptTimeoutMs: 300 });
    let nested: Promise<void> | undefined;
    let count = 0;
    const reentrant = await receiver((response: ServerResponse) => {
      if (count++ > 0) return void response.end('ok');
      // Waits for the advance that waits for this answer: only the attempt timeout ends it.
      nested = clock.advance(0).then(() => void response.end('late'));
    });
    const endpoint = await service.createEndpoint(APP, {
      url: reentrant.url,
      events: ['connection.connected'],
    });
    service.publish(connectionEvent(), [APP]);

    await clock.advance(DAY);
    await nested;

    const [delivery] = service.listDeliveries({ endpointId: endpoint.id });
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts.map((attempt) => [attempt.at, attempt.status_code, attempt.error])).toEqual([
      [stamps([0])[0], null, 'no answer within 300 ms'],
      [stamps([60])[0], 200, null],
    ]);
  });

  it('out_of_order: the held delivery is released by the later one and both walk their schedules in one advance', async () => {
    const { service, clock } = setup();
    const order: string[] = [];
    const failing = await receiver((response, request) => {
      order.push(String(request.headers['parley-event-id']));
      response.writeHead(500).end();
    });
    const endpoint = await service.createEndpoint(APP, {
      url: failing.url,
      events: ['connection.connected'],
    });
    service.setChaos(endpoint.id, { out_of_order: { next: 1 } });
    const [held] = service.publish(connectionEvent(), [APP]);
    const [overtaking] = service.publish(connectionEvent(), [APP]);

    await clock.advance(DAY);

    expect(order.slice(0, 2)).toEqual([overtaking!.event_id, held!.event_id]);
    for (const delivery of service.listDeliveries({ endpointId: endpoint.id })) {
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts.map((attempt) => attempt.at)).toEqual(stamps(SCHEDULE_S));
    }
    expect(failing.requests).toHaveLength(24);
  });

  it('a delivery started by the wall-clock timer before the advance is awaited by it, and its retry runs inside it', async () => {
    const { service, clock } = setup();
    const failing = await receiver((response) => response.writeHead(500).end());
    const endpoint = await service.createEndpoint(APP, {
      url: failing.url,
      events: ['connection.connected'],
    });
    service.publish(connectionEvent(), [APP]);
    // A frozen clock still starts work already due: the first attempt leaves without an advance.
    await expect.poll(() => failing.requests.length).toBe(1);

    await clock.advance(60_000);

    const [delivery] = service.listDeliveries({ endpointId: endpoint.id });
    expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stamps([0, 60]));
    expect(delivery!.next_attempt_at).toBe(stamps([180])[0]);
  });
});

describe('a retry due while its previous attempt is still finishing', () => {
  it('on a real clock, a retry due during the duplicate chaos copy of the attempt before it runs once that copy is done', async () => {
    const timeline = createTimeline({ mode: 'real' });
    const state = createWebhooksState();
    const service = new WebhookService({
      getState: () => state,
      clock: timeline.clock,
      scheduler: timeline.scheduler,
      urlPolicy: 'local',
      resolveHost: async () => [],
      retrySchedule: RETRY_SCHEDULES.fast,
    });
    let count = 0;
    const flaky = await receiver((response) => {
      const index = count++;
      if (index !== 1) return void response.writeHead(index === 0 ? 500 : 204).end();
      // The duplicate copy of the failed first attempt answers only once its retry (50 ms) is due.
      const due = Date.parse(service.listDeliveries({})[0]!.next_attempt_at!);
      const poll = setInterval(() => {
        if (timeline.clock.now() <= due) return;
        clearInterval(poll);
        response.writeHead(204).end();
      }, 5);
    });
    const endpoint = await service.createEndpoint(APP, { url: flaky.url, events: ['connection.connected'] });
    service.setChaos(endpoint.id, { duplicate: { next: 1 } });
    service.publish(connectionEvent(), [APP]);
    try {
      await vi.waitFor(() => expect(service.listDeliveries({})[0]!.status).toBe('delivered'), {
        timeout: 5_000,
      });
      const attempts = service.listDeliveries({})[0]!.attempts;
      expect(attempts.map((attempt) => [attempt.chaos ?? 'own', attempt.status_code])).toEqual([
        ['own', 500],
        ['duplicate', 204],
        ['own', 204],
      ]);
      expect(flaky.requests).toHaveLength(3);
    } finally {
      await service.close();
      timeline.stop();
    }
  });
});
