import { describe, expect, it } from 'vitest';
import {
  APP,
  connectionEvent,
  deliveryOf,
  expectedSignature,
  OTHER_APP,
  receiver,
  setup,
} from '../_testing/webhook-harness';
import { KEPT_FINISHED_DELIVERIES } from './_delivery-dispatcher';
import { WebhookService } from './webhook-service';
import { WEBHOOK_TEST_MESSAGE } from './webhook-test-event';

const HOUR = 60 * 60 * 1000;

function signaturesOf(header: string | string[] | undefined): string[] {
  return String(header)
    .split(',')
    .map((part) => part.replace(/^v1=/, ''));
}

describe('WebhookService endpoints', () => {
  it('creates an endpoint with a secret shown once, and validates the input', async () => {
    const { service, changes } = setup();
    const created = await service.createEndpoint(APP, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['message.received', 'message.received', 'webhook.test'],
    });
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(created).toMatchObject({
      application_id: APP,
      active: true,
      events: ['message.received', 'webhook.test'],
    });
    expect(changes()).toBe(1);
    expect(service.getEndpoint(created.id)).not.toHaveProperty('secret');
    expect(service.listEndpoints(APP).map((endpoint) => Object.keys(endpoint).sort())).toEqual([
      ['active', 'application_id', 'created_at', 'events', 'id', 'url'],
    ]);
    expect(service.listEndpoints(OTHER_APP)).toEqual([]);
    const second = await service.createEndpoint(APP, {
      url: 'http://localhost:9/b',
      events: ['webhook.test'],
    });
    expect(second.secret).not.toBe(created.secret);

    await expect(service.createEndpoint(APP, { url: 'http://127.0.0.1:9/' })).rejects.toMatchObject({
      code: 'validation_error',
      details: { field: 'events' },
    });
    await expect(
      service.createEndpoint(APP, { url: 'http://127.0.0.1:9/', events: ['message.sent'] }),
    ).rejects.toMatchObject({
      code: 'validation_error',
      details: { field: 'events', reason: 'unknown_event_type' },
    });
    await expect(service.createEndpoint(APP, { events: ['webhook.test'] })).rejects.toMatchObject({
      code: 'validation_error',
      details: { field: 'url' },
    });
    await expect(service.createEndpoint(APP, 'nope')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(
      service.createEndpoint(APP, { url: 'http://10.0.0.8/hooks', events: ['webhook.test'] }),
    ).rejects.toMatchObject({ code: 'invalid_url', status: 400 });
    expect(() => service.getEndpoint('missing')).toThrow(
      expect.objectContaining({ code: 'not_found', status: 404 }),
    );
  });

  it('updates active and events, refuses a URL change and bad values', async () => {
    const { service } = setup();
    const endpoint = await service.createEndpoint(APP, {
      url: 'http://127.0.0.1:9/',
      events: ['webhook.test'],
    });
    expect(
      service.updateEndpoint(endpoint.id, { active: false, events: ['message.received'] }),
    ).toMatchObject({
      active: false,
      events: ['message.received'],
    });
    expect(() => service.updateEndpoint(endpoint.id, { active: 'no' })).toThrow(
      expect.objectContaining({
        code: 'validation_error',
        details: { field: 'active', reason: 'not_a_boolean' },
      }),
    );
    expect(() => service.updateEndpoint(endpoint.id, { url: 'http://127.0.0.1:10/' })).toThrow(
      expect.objectContaining({ details: { field: 'url', reason: 'immutable' } }),
    );
    expect(() => service.updateEndpoint('missing', {})).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('routes an event to the active endpoints of the given applications that subscribe to its type', async () => {
    const { service, step } = setup();
    const hook = await receiver();
    const url = hook.url;
    const subscribed = await service.createEndpoint(APP, { url, events: ['connection.connected'] });
    await service.createEndpoint(APP, { url, events: ['connection.disconnected'] });
    const inactive = await service.createEndpoint(APP, {
      url,
      events: ['connection.connected'],
      active: false,
    });
    await service.createEndpoint(OTHER_APP, { url, events: ['connection.connected'] });

    expect(service.publish(connectionEvent(), [APP])).toHaveLength(1);
    expect(service.publish(connectionEvent(), [])).toHaveLength(0);
    expect(service.publish(connectionEvent(), [APP, OTHER_APP])).toHaveLength(2);
    service.updateEndpoint(inactive.id, { active: true });
    service.updateEndpoint(subscribed.id, { active: false });
    expect(service.publish(connectionEvent(), [APP])).toHaveLength(1);
    expect(service.listDeliveries({ endpointId: inactive.id })).toHaveLength(1);
    expect(service.listDeliveries({ applicationId: OTHER_APP })).toHaveLength(1);
    expect(service.listDeliveries({ applicationId: APP })).toHaveLength(3);
    await step(0);
    expect(hook.requests).toHaveLength(4);
  });

  it('sends a webhook.test event to one endpoint, whatever it subscribes to', async () => {
    const { service, step } = setup();
    const hook = await receiver();
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['message.received'] });
    await service.createEndpoint(APP, { url: hook.url, events: ['webhook.test'] });
    const { event_id } = service.sendTest(endpoint.id);
    expect(event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    await step(0);

    expect(hook.requests).toHaveLength(1);
    const body = JSON.parse(hook.requests[0]!.body.toString('utf8'));
    expect(body).toMatchObject({ id: event_id, type: 'webhook.test', livemode: false });
    expect(body.data).toEqual({ message: WEBHOOK_TEST_MESSAGE });
    expect(deliveryOf(service, endpoint.id)).toMatchObject({
      event_id,
      event_type: 'webhook.test',
      status: 'delivered',
    });
    expect(() => service.sendTest('missing')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('deletes an endpoint with its deliveries, and its retries stop', async () => {
    const { service, step } = setup();
    const hook = await receiver((response) => {
      response.statusCode = 503;
      response.end();
    });
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    service.publish(connectionEvent(), [APP]);
    await step(0);
    service.deleteEndpoint(endpoint.id);
    await step(HOUR);
    expect(hook.requests).toHaveLength(1);
    expect(service.listDeliveries({ endpointId: endpoint.id })).toEqual([]);
    expect(() => service.deleteEndpoint(endpoint.id)).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});

describe('WebhookService secret rotation (spec 6.4)', () => {
  it('signs with the new and the old secret, new first, for 24 h of clock time', async () => {
    const { service, step, clock } = setup();
    const hook = await receiver();
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    const rotatedAt = clock.now();
    const rotation = service.rotateSecret(endpoint.id);
    expect(rotation.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(rotation.secret).not.toBe(endpoint.secret);
    expect(rotation.previous_expires_at).toBe(new Date(rotatedAt + 24 * HOUR).toISOString());

    service.publish(connectionEvent(), [APP]);
    await step(0);
    const during = hook.requests[0]!;
    const [id, timestamp] = [
      String(during.headers['parley-event-id']),
      String(during.headers['parley-timestamp']),
    ];
    expect(signaturesOf(during.headers['parley-signature'])).toEqual([
      expectedSignature(rotation.secret, id, timestamp, during.body),
      expectedSignature(endpoint.secret, id, timestamp, during.body),
    ]);

    await step(24 * HOUR - 1);
    service.publish(connectionEvent(), [APP]);
    await step(0);
    expect(signaturesOf(hook.requests[1]!.headers['parley-signature'])).toHaveLength(2);

    await step(1);
    service.publish(connectionEvent(), [APP]);
    await step(0);
    const after = hook.requests[2]!;
    expect(after.headers['parley-signature']).toBe(
      `v1=${expectedSignature(rotation.secret, String(after.headers['parley-event-id']), String(after.headers['parley-timestamp']), after.body)}`,
    );
  });

  it('rotating during a rotation replaces the new secret and keeps the oldest until its first expiry', async () => {
    const { service, step, clock } = setup();
    const hook = await receiver();
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    const firstRotationAt = clock.now();
    const first = service.rotateSecret(endpoint.id);
    await step(5 * HOUR);
    const second = service.rotateSecret(endpoint.id);
    expect(second.previous_expires_at).toBe(first.previous_expires_at);
    expect(second.secret).not.toBe(first.secret);

    service.publish(connectionEvent(), [APP]);
    await step(0);
    const request = hook.requests[0]!;
    const [id, timestamp] = [
      String(request.headers['parley-event-id']),
      String(request.headers['parley-timestamp']),
    ];
    expect(signaturesOf(request.headers['parley-signature'])).toEqual([
      expectedSignature(second.secret, id, timestamp, request.body),
      expectedSignature(endpoint.secret, id, timestamp, request.body),
    ]);

    await step(firstRotationAt + 24 * HOUR - clock.now());
    const third = service.rotateSecret(endpoint.id);
    // The first rotation has ended: the secret being replaced now becomes the old one.
    expect(third.previous_expires_at).toBe(new Date(clock.now() + 24 * HOUR).toISOString());
    service.publish(connectionEvent(), [APP]);
    await step(0);
    const later = hook.requests[1]!;
    const [laterId, laterTimestamp] = [
      String(later.headers['parley-event-id']),
      String(later.headers['parley-timestamp']),
    ];
    expect(signaturesOf(later.headers['parley-signature'])).toEqual([
      expectedSignature(third.secret, laterId, laterTimestamp, later.body),
      expectedSignature(second.secret, laterId, laterTimestamp, later.body),
    ]);
    expect(() => service.rotateSecret('missing')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});

describe('WebhookService replay and restore', () => {
  it('replays a failed delivery as a new series with the same event id and body', async () => {
    const { service, step } = setup();
    let answer = 500;
    const hook = await receiver((response) => {
      response.statusCode = answer;
      response.end();
    });
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    const event = connectionEvent();
    service.publish(event, [APP]);
    await step(0);
    const [pending] = service.listDeliveries({ endpointId: endpoint.id });
    expect(() => service.replay(pending!.id)).toThrow(expect.objectContaining({ code: 'validation_error' }));
    for (let attempt = 1; attempt < 12; attempt++) await step(6 * HOUR);
    const failed = deliveryOf(service, endpoint.id);
    expect(failed.status).toBe('failed');

    answer = 200;
    const replayed = service.replay(failed.id);
    expect(replayed).toMatchObject({ event_id: event.id, status: 'pending', attempts: [] });
    expect(replayed.id).not.toBe(failed.id);
    await step(0);

    const [latest, original] = service.listDeliveries({ endpointId: endpoint.id });
    expect(latest).toMatchObject({ id: replayed.id, status: 'delivered', event_id: event.id });
    expect(original).toMatchObject({ id: failed.id, status: 'failed' });
    expect(hook.requests).toHaveLength(13);
    expect(hook.requests[12]!.headers['parley-event-id']).toBe(event.id);
    expect(hook.requests[12]!.body.equals(hook.requests[0]!.body)).toBe(true);
    expect(() => service.replay('missing')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('restore re-schedules every pending delivery of a reloaded state at its next_attempt_at', async () => {
    const first = setup();
    const hook = await receiver((response) => {
      response.statusCode = 500;
      response.end();
    });
    const endpoint = await first.service.createEndpoint(APP, {
      url: hook.url,
      events: ['connection.connected'],
    });
    first.service.publish(connectionEvent(), [APP]);
    await first.step(0);
    await first.clock.advance(10_000);
    first.service.publish(connectionEvent(), [APP]); // never attempted before the "restart"
    const saved = JSON.stringify(first.getState());
    await first.service.close();

    const second = setup();
    await second.clock.advance(first.clock.now() - second.clock.now());
    second.setState(JSON.parse(saved));
    second.service.restore();
    await second.step(0);
    expect(hook.requests).toHaveLength(2);
    await second.step(50_000 - 1);
    expect(hook.requests).toHaveLength(2);
    await second.step(1);
    expect(hook.requests).toHaveLength(3);
    const attempts = second.service.listDeliveries({ endpointId: endpoint.id }).map((d) => d.attempts.length);
    expect(attempts).toEqual([1, 2]);
  });

  it('close aborts an attempt in flight and leaves the delivery pending for a restart', async () => {
    const { service, clock } = setup({ attemptTimeoutMs: 10_000 });
    const hanging = await receiver(() => {});
    const endpoint = await service.createEndpoint(APP, {
      url: hanging.url,
      events: ['connection.connected'],
    });
    service.publish(connectionEvent(), [APP]);
    // The advance waits for the attempt, which only close ends.
    const advanced = clock.advance(0);
    await expect.poll(() => hanging.requests.length).toBe(1);
    await service.close();
    await advanced;
    expect(deliveryOf(service, endpoint.id)).toMatchObject({ status: 'pending', attempts: [] });
  });

  it('keeps the newest finished deliveries up to the limit, and every pending one', async () => {
    const { service, getState } = setup();
    const endpoint = await service.createEndpoint(APP, {
      url: 'http://127.0.0.1:9/',
      events: ['webhook.test'],
    });
    const deliveries = getState().deliveries;
    const total = KEPT_FINISHED_DELIVERIES + 5;
    for (let index = 0; index < total; index++) {
      const id = `delivery-${index}`;
      deliveries[id] = {
        id,
        event_id: `evt_${index}`,
        event_type: 'webhook.test',
        endpoint_id: endpoint.id,
        application_id: APP,
        status: index === 0 ? 'pending' : 'delivered',
        attempts: [],
        next_attempt_at: index === 0 ? '2030-01-01T00:00:00.000Z' : null,
        created_at: '2026-11-01T09:00:00.000Z',
        body: '{}',
      };
    }
    service.restore();
    expect(Object.keys(deliveries)).toHaveLength(KEPT_FINISHED_DELIVERIES + 1);
    expect(deliveries['delivery-0']?.status).toBe('pending');
    expect(deliveries['delivery-4']).toBeUndefined();
    expect(deliveries['delivery-5']).toBeDefined();
    expect(deliveries[`delivery-${total - 1}`]).toBeDefined();
  });

  it('is constructed with the documented dependencies only', () => {
    const { clock, scheduler } = setup();
    const service = new WebhookService({
      getState: () => ({ endpoints: {}, deliveries: {} }),
      clock,
      scheduler,
      urlPolicy: 'strict',
    });
    expect(service.listEndpoints()).toEqual([]);
  });
});
