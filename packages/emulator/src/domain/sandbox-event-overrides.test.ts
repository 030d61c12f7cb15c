import type { Connection, Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import { withSandboxEventOverrides } from './sandbox-event-overrides';
import { SANDBOX_CONNECTIONS, syntheticInboundMessage, syntheticStatusMessage } from './sandbox-fixtures';

const AT = '2026-10-14T09:30:00.000Z';
const received = () => ({ message: syntheticInboundMessage('m-1', AT) });
const statusUpdated = () => ({ message: syntheticStatusMessage('m-2', AT) });

describe('withSandboxEventOverrides: `parley trigger TYPE --set path=value` (POST /v1/sandbox/events)', () => {
  test('no overrides: the synthetic data as it is, the same object', () => {
    const data = received();
    expect(withSandboxEventOverrides('message.received', data, undefined)).toBe(data);
  });

  test('an empty object changes nothing', () => {
    expect(withSandboxEventOverrides('message.received', received(), {})).toEqual(received());
  });

  test('data.message.text and data.message.from of message.received; the rest as synthesized', () => {
    const data = received();
    const result = withSandboxEventOverrides('message.received', data, {
      'data.message.text': 'Where is my order?',
      'data.message.from': '+447700900123',
    });
    expect(result).toEqual({
      message: { ...received().message, text: 'Where is my order?', from: '+447700900123' },
    });
    // The synthetic data itself is left as it was.
    expect(data).toEqual(received());
    expect(result.message).not.toBe(data.message);
  });

  test('paths three levels deep: data.message.template.name and .language', () => {
    const result = withSandboxEventOverrides('message.status_updated', statusUpdated(), {
      'data.message.template.name': 'order_confirmation',
      'data.message.template.language': 'fr',
      'data.message.client_reference': null,
    });
    expect(result.message).toEqual({
      ...statusUpdated().message,
      template: { name: 'order_confirmation', language: 'fr' },
      client_reference: null,
    });
  });

  test('a connection event: data.connection.quality_rating and .name', () => {
    const data = { connection: { ...SANDBOX_CONNECTIONS[0]! } as Connection };
    const result = withSandboxEventOverrides('connection.connected', data, {
      'data.connection.quality_rating': 'RED',
      'data.connection.name': 'Support line',
    });
    expect(result).toEqual({
      connection: { ...SANDBOX_CONNECTIONS[0]!, quality_rating: 'RED', name: 'Support line' },
    });
    expect(data.connection.quality_rating).toBe('GREEN');
  });

  test('webhook.test: data.message is the text itself', () => {
    const result = withSandboxEventOverrides(
      'webhook.test',
      { message: 'This is a test event from Parley: your endpoint received it.' },
      { 'data.message': 'Ping from CI' },
    );
    expect(result).toEqual({ message: 'Ping from CI' });
  });

  test('status set to failed: the error an unreachable sandbox recipient gets (a failed message says why)', () => {
    const result = withSandboxEventOverrides('message.status_updated', statusUpdated(), {
      'data.message.status': 'failed',
      'data.message.to': '+15550109999',
    });
    expect(result.message).toEqual({
      ...statusUpdated().message,
      to: '+15550109999',
      status: 'failed',
      error: {
        code: 'recipient_unreachable',
        message: 'The sandbox recipient +15550109999 is unreachable.',
      },
    });
  });

  test('a message that already failed with its own error keeps that error', () => {
    const error = { code: 'message_undeliverable', message: 'Undeliverable.' };
    const data = { message: { ...syntheticStatusMessage('m-3', AT), status: 'failed', error } as Message };
    const result = withSandboxEventOverrides('message.status_updated', data, {
      'data.message.to': '+15550101004',
    });
    expect(result.message.error).toEqual(error);
  });

  test.each(['queued', 'sent', 'delivered', 'read'])('status set to %s: no error', (status) => {
    const result = withSandboxEventOverrides('message.status_updated', statusUpdated(), {
      'data.message.status': status,
    });
    expect(result.message).toMatchObject({ status, error: null });
  });

  test.each([
    [
      'an unknown path',
      'message.received',
      { 'data.message.txt': 'hi' },
      'data.message.txt',
      'unknown_path',
      'data.message.txt cannot be set on message.received: use data.message.text, data.message.from.',
    ],
    [
      'a path of another event type',
      'message.received',
      { 'data.message.status': 'read' },
      'data.message.status',
      'unknown_path',
      'data.message.status cannot be set on message.received: use data.message.text, data.message.from.',
    ],
    [
      'a value outside its rule',
      'message.status_updated',
      { 'data.message.status': 'lost' },
      'data.message.status',
      'invalid_value',
      'data.message.status must be one of queued, sent, delivered, read, failed, got "lost".',
    ],
    [
      'a value of the wrong type',
      'message.received',
      { 'data.message.text': 42 },
      'data.message.text',
      'invalid_type',
      'data.message.text must be a string of 1 to 4096 characters, got the number 42.',
    ],
    [
      'a phone number not in international format',
      'message.received',
      { 'data.message.from': '0612' },
      'data.message.from',
      'invalid_value',
      'data.message.from must be a phone number in international format (+ and 8 to 15 digits), got "0612".',
    ],
    [
      'overrides that are not an object',
      'message.received',
      ['data.message.text'],
      'overrides',
      'invalid_type',
      'overrides must be an object of values by dotted path, e.g. {"data.message.text":"Hi"}.',
    ],
  ] as const)(
    '%s: 400 validation_error naming the path, data untouched',
    (_, type, overrides, field, reason, message) => {
      const data = type === 'message.received' ? received() : statusUpdated();
      const before = structuredClone(data);
      expect(thrownDomainError(() => withSandboxEventOverrides(type, data, overrides))).toMatchObject({
        code: 'validation_error',
        status: 400,
        message,
        details: { field, reason },
      });
      expect(data).toEqual(before);
    },
  );

  test('one bad path among good ones refuses them all', () => {
    const data = received();
    expect(
      thrownDomainError(() =>
        withSandboxEventOverrides('message.received', data, {
          'data.message.text': 'fine',
          'data.message.id': 'mine',
        }),
      ),
    ).toMatchObject({ status: 400, details: { field: 'data.message.id', reason: 'unknown_path' } });
    expect(data).toEqual(received());
  });
});
