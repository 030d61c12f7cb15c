import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_EVENT_TYPES } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator } from '../_testing/test-emulator';
import {
  SANDBOX_ACTIVE_CONNECTION_ID,
  SANDBOX_DISCONNECTED_CONNECTION_ID,
  SYNTHETIC_INBOUND_TEXT,
  SYNTHETIC_SENDER,
} from '../domain/sandbox-fixtures';
import { WEBHOOK_TEST_MESSAGE } from '../webhooks/webhook-test-event';

describe('POST /v1/sandbox/events (spec 4.6)', () => {
  test.each(SANDBOX_EVENT_TYPES)('%s: 202 with the envelope and deliveries_queued', async (type) => {
    const { call } = testEmulator();
    const answer = await call('POST', '/v1/sandbox/events', { body: { type } });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      api_version: '2026-10-14',
      created_at: '2026-10-14T09:30:15Z',
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      livemode: false,
      type,
      deliveries_queued: 0,
    });
  });

  test('synthetic data: message.received from the fixed sender, French text, first connection', async () => {
    const { call } = testEmulator();
    const { body } = await call('POST', '/v1/sandbox/events', { body: { type: 'message.received' } });
    expect(body.data.message).toMatchObject({
      direction: 'inbound',
      status: 'received',
      from: SYNTHETIC_SENDER,
      to: null,
      text: SYNTHETIC_INBOUND_TEXT,
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      livemode: false,
    });
    const test = await call('POST', '/v1/sandbox/events', { body: { type: 'webhook.test' } });
    expect(test.body.data).toEqual({ message: WEBHOOK_TEST_MESSAGE });
    const connected = await call('POST', '/v1/sandbox/events', { body: { type: 'connection.connected' } });
    expect(connected.body.data.connection).toMatchObject({
      id: SANDBOX_ACTIVE_CONNECTION_ID,
      status: 'active',
    });
    const disconnected = await call('POST', '/v1/sandbox/events', {
      body: { type: 'connection.disconnected' },
    });
    // The disconnected fixture itself: the event and GET /connections agree.
    const listed = await call('GET', '/v1/connections');
    expect(disconnected.body.data.connection).toEqual(
      listed.body.data.find(
        (connection: { id: string }) => connection.id === SANDBOX_DISCONNECTED_CONNECTION_ID,
      ),
    );
    expect(disconnected.body.data.connection.status).toBe('disconnected');
  });

  test.each([
    ['message.received', 'received'],
    ['message.status_updated', 'delivered'],
  ])(
    'a synthetic %s names a message GET /v1/messages/{id} returns, and it stays %s',
    async (type, status) => {
      const { call, emulator } = testEmulator();
      const event = await call('POST', '/v1/sandbox/events', { body: { type } });
      const message = event.body.data.message;
      expect(message.status).toBe(status);
      const fetched = await call('GET', `/v1/messages/${message.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(message);
      await emulator.clock.advance(60_000);
      const later = await call('GET', `/v1/messages/${message.id}`);
      expect(later.body).toEqual(message);
      expect(
        (await emulator.control.listEvents()).data.filter((listed) => listed.type === type),
      ).toHaveLength(1);
    },
  );

  test('deliveries_queued counts the active subscribed endpoints of this application only', async () => {
    const { call, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const url = 'http://127.0.0.1:9/hook';
    await emulator.control.createEndpoint(app.id, { url, events: ['message.received'] });
    await emulator.control.createEndpoint(app.id, { url, events: ['message.received', 'webhook.test'] });
    const inactive = await emulator.control.createEndpoint(app.id, { url, events: ['message.received'] });
    await emulator.control.updateEndpoint(inactive.id, { active: false });
    const other = await createAppWithKey(emulator, 'sandbox');
    await emulator.control.createEndpoint(other.app.id, { url, events: ['message.received'] });
    const answer = await call('POST', '/v1/sandbox/events', { body: { type: 'message.received' } });
    expect(answer.body.deliveries_queued).toBe(2);
    const deliveries = (await emulator.control.listDeliveries({ applicationId: app.id })).data;
    expect(deliveries.filter((delivery) => delivery.event_id === answer.body.id)).toHaveLength(2);
    expect((await emulator.control.listDeliveries({ applicationId: other.app.id })).data).toHaveLength(0);
  });

  test('on a frozen clock a delivery already due goes out without moving the clock', async () => {
    const { call, emulator } = testEmulator();
    let arrived: (body: string) => void = () => {};
    const delivered = new Promise<string>((resolve) => {
      arrived = resolve;
    });
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        response.writeHead(200).end();
        arrived(body);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const app = (await emulator.control.listApplications()).data[0]!;
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await emulator.control.createEndpoint(app.id, { url, events: ['webhook.test'] });
      const before = emulator.clock.now();
      const queued = await call('POST', '/v1/sandbox/events', { body: { type: 'webhook.test' } });
      expect(JSON.parse(await delivered).id).toBe(queued.body.id);
      expect(emulator.clock.now()).toBe(before);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  test('unknown type, missing type or developer.application.created: 400 validation_error', async () => {
    const { call } = testEmulator();
    for (const [body, reason] of [
      [{ type: 'message.deleted' }, 'invalid_value'],
      [{ type: 'developer.application.created' }, 'not_allowed'],
      [{}, 'required'],
    ] as const) {
      const answer = await call('POST', '/v1/sandbox/events', { body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        code: 'validation_error',
        details: { field: 'type', reason },
      });
    }
  });

  test('a live key: 403 sandbox_only', async () => {
    const { call, emulator } = testEmulator();
    const { key } = await createAppWithKey(emulator, 'live');
    const answer = await call('POST', '/v1/sandbox/events', { key, body: { type: 'webhook.test' } });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('sandbox_only');
  });
});
