import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';

describe('POST /v1/sandbox/events with overrides', () => {
  test('sets each path in the event, and the stored message GET /v1/messages/{id} returns', async () => {
    const { call } = testEmulator();
    const answer = await call('POST', '/v1/sandbox/events', {
      body: {
        type: 'message.received',
        overrides: { 'data.message.text': 'Where is my order?', 'data.message.from': '+33612345678' },
      },
    });
    expect(answer.status).toBe(202);
    const message = answer.body.data.message;
    expect(message).toMatchObject({
      direction: 'inbound',
      text: 'Where is my order?',
      from: '+33612345678',
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    });
    expect((await call('GET', `/v1/messages/${message.id}`)).body).toEqual(message);
  });

  test('a status overridden to failed carries the error of an unreachable recipient', async () => {
    const { call } = testEmulator();
    const answer = await call('POST', '/v1/sandbox/events', {
      body: {
        type: 'message.status_updated',
        overrides: {
          'data.message.status': 'failed',
          'data.message.to': '+33612340000',
          'data.message.client_reference': 'order-42',
        },
      },
    });
    expect(answer.body.data.message).toMatchObject({
      status: 'failed',
      to: '+33612340000',
      client_reference: 'order-42',
      error: { code: 'recipient_unreachable', message: 'The sandbox recipient +33612340000 is unreachable.' },
    });
    const stored = await call('GET', `/v1/messages/${answer.body.data.message.id}`);
    expect(stored.body).toEqual(answer.body.data.message);
  });

  test('webhook.test and connection events take their own paths', async () => {
    const { call } = testEmulator();
    const test = await call('POST', '/v1/sandbox/events', {
      body: { type: 'webhook.test', overrides: { 'data.message': 'ping from CI' } },
    });
    expect(test.body.data).toEqual({ message: 'ping from CI' });
    const connected = await call('POST', '/v1/sandbox/events', {
      body: { type: 'connection.connected', overrides: { 'data.connection.quality_rating': 'RED' } },
    });
    expect(connected.body.data.connection).toMatchObject({
      id: SANDBOX_ACTIVE_CONNECTION_ID,
      quality_rating: 'RED',
    });
    // The fixture itself is untouched: GET /v1/connections still shows it GREEN.
    const listed = await call('GET', '/v1/connections');
    expect(listed.body.data[0]).toMatchObject({ id: SANDBOX_ACTIVE_CONNECTION_ID, quality_rating: 'GREEN' });
  });

  test('an unknown path, a wrong type or a bad value: 400 validation_error naming the path, nothing emitted', async () => {
    const { call, emulator } = testEmulator();
    // JSON text as a client sends it, so `__proto__` is an own key of the parsed object.
    for (const [overrides, field, reason] of [
      ['{"data.message.txt":"hi"}', 'data.message.txt', 'unknown_path'],
      ['{"data.message.id":"x"}', 'data.message.id', 'unknown_path'],
      ['{"__proto__":"x"}', '__proto__', 'unknown_path'],
      ['{"data.message.text":42}', 'data.message.text', 'invalid_type'],
      ['{"data.message.from":"0612"}', 'data.message.from', 'invalid_value'],
      ['"text"', 'overrides', 'invalid_type'],
    ] as const) {
      const answer = await call('POST', '/v1/sandbox/events', {
        raw: `{"type":"message.received","overrides":${overrides}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, field).toBe(400);
      expect(answer.body.error, field).toMatchObject({
        code: 'validation_error',
        details: { field, reason },
      });
    }
    expect((await emulator.control.listEvents()).data).toEqual([]);
    expect((await emulator.control.listMessages()).data).toEqual([]);
  });
});
