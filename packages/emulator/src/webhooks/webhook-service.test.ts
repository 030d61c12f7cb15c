import { TEST_CA } from '@parley/test-utils';
import { describe, expect, it, vi } from 'vitest';
import {
  APP,
  connectionEvent,
  deliveryOf,
  expectedSignature,
  receiver,
  setup,
} from '../_testing/webhook-harness';
import { PARALLEL_ATTEMPTS_PER_ENDPOINT } from './_delivery-dispatcher';

const wallSeconds = () => Math.floor(Date.now() / 1000);

describe('WebhookService deliveries', () => {
  it('delivers the canonical body, signed, on the first scheduled attempt', async () => {
    const { service, step, clock } = setup();
    const hook = await receiver();
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    const event = connectionEvent();
    expect(service.publish(event, [APP])).toHaveLength(1);
    expect(hook.requests).toHaveLength(0);

    const notBefore = wallSeconds();
    await step(0);
    const notAfter = wallSeconds();
    expect(hook.requests).toHaveLength(1);
    const request = hook.requests[0]!;
    expect(request.method).toBe('POST');
    // Written out by hand: keys sorted at every depth, no whitespace, UTF-8 as is.
    const expectedBody =
      '{"api_version":"2026-10-14","created_at":"2026-11-01T09:00:00.000Z","data":{"connection":' +
      '{"created_at":"2026-11-01T08:00:00.000Z","id":"5b1f0c8e-2a4d-4e7b-9c3f-8d6e5a4b3c21","livemode":false,' +
      '"name":"Zeta Café","object":"connection","phone_number":"+15550001111","quality_rating":"GREEN",' +
      `"status":"active","waba_id":"1029384756"}},"id":"${event.id}","livemode":false,"type":"connection.connected"}`;
    expect(request.body.equals(Buffer.from(expectedBody, 'utf8'))).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Parley-Webhooks/1.0 (emulator)');
    expect(request.headers['parley-event-id']).toBe(event.id);
    // Signed with the wall-clock second it left at (DESIGN §3), not the emulator clock's.
    const timestamp = Number(request.headers['parley-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(notBefore);
    expect(timestamp).toBeLessThanOrEqual(notAfter);
    expect(timestamp).not.toBe(Math.floor(clock.now() / 1000));
    expect(request.headers['parley-signature']).toBe(
      `v1=${expectedSignature(endpoint.secret, event.id, request.headers['parley-timestamp'] as string, request.body)}`,
    );
    const delivery = deliveryOf(service, endpoint.id);
    expect(delivery).toMatchObject({
      event_id: event.id,
      event_type: 'connection.connected',
      endpoint_id: endpoint.id,
      status: 'delivered',
      next_attempt_at: null,
    });
    expect(delivery.attempts).toEqual([
      {
        at: new Date(clock.now()).toISOString(),
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number),
      },
    ]);
  });

  it('retries a 500 at 60 s, 120 s, 240 s … 6 h, then fails after the 12th attempt', async () => {
    const { service, step, clock } = setup();
    const hook = await receiver((response) => {
      response.statusCode = 500;
      response.end('boom');
    });
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    // The wall clock moves a second between attempts (the emulator clock moves hours): each
    // attempt must carry the wall-clock second it left at.
    let wallSkewMs = 0;
    const realNow = Date.now.bind(Date);
    const wallClock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + wallSkewMs);
    const leftWindows: Array<[number, number]> = [];
    const stepAndRecord = async (ms: number) => {
      wallSkewMs += 1_000;
      const notBefore = wallSeconds();
      await step(ms);
      leftWindows.push([notBefore, wallSeconds()]);
    };
    const start = clock.now();
    service.publish(connectionEvent(), [APP]);
    await stepAndRecord(0);

    const expectedDelays = [60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600].map(
      (s) => s * 1000,
    );
    let attemptAt = start;
    for (const [index, delay] of expectedDelays.entries()) {
      const delivery = deliveryOf(service, endpoint.id);
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts).toHaveLength(index + 1);
      expect(delivery.attempts[index]).toMatchObject({
        status_code: 500,
        error: 'receiver answered HTTP 500',
      });
      expect(delivery.next_attempt_at).toBe(new Date(attemptAt + delay).toISOString());
      await step(delay - 1);
      expect(hook.requests).toHaveLength(index + 1);
      await stepAndRecord(1);
      expect(hook.requests).toHaveLength(index + 2);
      attemptAt += delay;
    }

    const failed = deliveryOf(service, endpoint.id);
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toHaveLength(12);
    expect(failed.next_attempt_at).toBeNull();
    expect(attemptAt - start).toBe(73_860_000); // about 20.5 h
    await step(24 * 60 * 60 * 1000);
    expect(hook.requests).toHaveLength(12);
    wallClock.mockRestore();
    // Every attempt is signed afresh with its own wall-clock time; the event id never changes.
    const timestamps = hook.requests.map((request) => Number(request.headers['parley-timestamp']));
    expect(new Set(timestamps).size).toBe(12);
    for (const [index, [notBefore, notAfter]] of leftWindows.entries()) {
      expect(timestamps[index]).toBeGreaterThanOrEqual(notBefore);
      expect(timestamps[index]).toBeLessThanOrEqual(notAfter);
    }
    expect(new Set(hook.requests.map((request) => request.headers['parley-event-id'])).size).toBe(1);
  });

  it('counts a 302 as a failed attempt and never follows it', async () => {
    const { service, step } = setup();
    const target = await receiver();
    const redirecting = await receiver((response) => {
      response.writeHead(302, { location: target.url });
      response.end();
    });
    const endpoint = await service.createEndpoint(APP, {
      url: redirecting.url,
      events: ['connection.connected'],
    });
    service.publish(connectionEvent(), [APP]);
    await step(0);

    const delivery = deliveryOf(service, endpoint.id);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({
      status_code: 302,
      error: expect.stringContaining('not followed'),
    });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it('counts no answer within the timeout as a failed attempt', async () => {
    const { service, step } = setup({ attemptTimeoutMs: 200 });
    const hanging = await receiver(() => {});
    const endpoint = await service.createEndpoint(APP, {
      url: hanging.url,
      events: ['connection.connected'],
    });
    service.publish(connectionEvent(), [APP]);
    await step(0);

    const delivery = deliveryOf(service, endpoint.id);
    expect(hanging.requests).toHaveLength(1);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 200 ms' });
    expect(delivery.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(190);
  });

  it('counts a reset connection as a failed attempt', async () => {
    const { service, step } = setup();
    const resetting = await receiver((_response, request) => request.socket.destroy());
    const endpoint = await service.createEndpoint(APP, {
      url: resetting.url,
      events: ['connection.connected'],
    });
    service.publish(connectionEvent(), [APP]);
    await step(0);

    const delivery = deliveryOf(service, endpoint.id);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^no answer: /),
    });
    expect(delivery.next_attempt_at).not.toBeNull();
  });

  it('delivers to a healthy endpoint while another one hangs', async () => {
    const { service, clock } = setup({ attemptTimeoutMs: 10_000 });
    const hanging = await receiver(() => {});
    const healthy = await receiver();
    const slow = await service.createEndpoint(APP, { url: hanging.url, events: ['connection.connected'] });
    const fast = await service.createEndpoint(APP, { url: healthy.url, events: ['connection.connected'] });
    // The hanging endpoint comes first, so its attempt starts before the healthy one's.
    expect(service.publish(connectionEvent(), [APP])).toHaveLength(2);
    // The advance waits for both attempts (the hanging one until its timeout), so it is not awaited.
    const advanced = clock.advance(0);

    await vi.waitFor(() => expect(deliveryOf(service, fast.id).status).toBe('delivered'), { timeout: 5_000 });
    expect(hanging.requests).toHaveLength(1);
    expect(deliveryOf(service, slow.id)).toMatchObject({ status: 'pending', attempts: [] });
    await service.close();
    await advanced;
  });

  it('checks the URL again before each attempt: a host whose DNS turned private is not called', async () => {
    let addresses = ['93.184.216.34'];
    const { service, step } = setup({ urlPolicy: 'strict', resolveHost: async () => addresses });
    const endpoint = await service.createEndpoint(APP, {
      url: 'https://hooks.example.com/parley',
      events: ['connection.connected'],
    });
    addresses = ['10.0.0.7'];
    service.publish(connectionEvent(), [APP]);
    await step(0);
    expect(deliveryOf(service, endpoint.id)).toMatchObject({
      status: 'pending',
      attempts: [
        { status_code: null, error: expect.stringContaining('resolves to 10.0.0.7, a private address') },
      ],
    });
  });

  it('resolves once per attempt and connects where it checked: a DNS alternating public/loopback never gets loopback', async () => {
    // The "public" answer is dialled at a local TLS stand-in; any other address would be noticed.
    const standIn = await receiver(undefined, { tls: true });
    const dialled = new Set<string>();
    const network = {
      ca: TEST_CA,
      dial: (address: string) => {
        dialled.add(address);
        return { address: '127.0.0.1', port: standIn.port };
      },
    };
    let lookups = 0;
    const resolveHost = async () => (lookups++ % 2 === 0 ? ['93.184.216.34'] : ['127.0.0.1']);
    const { service, step } = setup({ urlPolicy: 'strict', resolveHost, network });
    const endpoint = await service.createEndpoint(APP, {
      url: 'https://hooks.parley.test/parley',
      events: ['connection.connected'],
    });
    for (let index = 0; index < 20; index++) service.publish(connectionEvent(), [APP]);
    await step(0);

    expect(lookups).toBe(21); // creation, then exactly one per attempt
    expect([...dialled]).toEqual(['93.184.216.34']);
    expect(standIn.requests).toHaveLength(10);
    expect(standIn.requests.every((request) => request.servername === 'hooks.parley.test')).toBe(true);
    const attempts = service
      .listDeliveries({ endpointId: endpoint.id })
      .map((delivery) => delivery.attempts[0]);
    expect(attempts.filter((attempt) => attempt?.status_code === 200)).toHaveLength(10);
    expect(
      attempts.filter((attempt) => attempt?.error?.includes('resolves to 127.0.0.1, a loopback')),
    ).toHaveLength(10);
  });

  it('sends a burst to one endpoint at most 8 at a time, all of them delivered', async () => {
    const { service, step } = setup();
    let open = 0;
    let mostOpen = 0;
    const hook = await receiver((response) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => {
        open--;
        response.end('ok');
      }, 20);
    });
    const endpoint = await service.createEndpoint(APP, { url: hook.url, events: ['connection.connected'] });
    for (let index = 0; index < 30; index++) service.publish(connectionEvent(), [APP]);
    await step(0);

    expect(hook.requests).toHaveLength(30);
    expect(mostOpen).toBeGreaterThan(1);
    expect(mostOpen).toBeLessThanOrEqual(PARALLEL_ATTEMPTS_PER_ENDPOINT);
    const statuses = service.listDeliveries({ endpointId: endpoint.id }).map((delivery) => delivery.status);
    expect(statuses).toEqual(Array(30).fill('delivered'));
  });
});
