import { describe, expect, it } from 'vitest';
import { SANDBOX_EVENT_OVERRIDES, sandboxEventOverrideProblem } from './sandbox-event-overrides';

describe('sandboxEventOverrideProblem', () => {
  it('accepts known paths with values of the right type, and no overrides at all', () => {
    expect(
      sandboxEventOverrideProblem('message.received', {
        'data.message.text': 'Where is my order?',
        'data.message.from': '+33612345678',
      }),
    ).toBeNull();
    expect(
      sandboxEventOverrideProblem('message.status_updated', {
        'data.message.status': 'failed',
        'data.message.client_reference': null,
      }),
    ).toBeNull();
    expect(sandboxEventOverrideProblem('webhook.test', {})).toBeNull();
  });

  it('names an unknown path, and the paths the type has', () => {
    expect(sandboxEventOverrideProblem('message.received', { 'data.message.txt': 'hi' })).toEqual({
      field: 'data.message.txt',
      reason: 'unknown_path',
      message:
        'data.message.txt cannot be set on message.received: use data.message.text, data.message.from.',
    });
  });

  it('never finds a rule through the prototype', () => {
    for (const path of ['__proto__', 'constructor', 'toString']) {
      const overrides = JSON.parse(`{${JSON.stringify(path)}:"x"}`);
      expect(sandboxEventOverrideProblem('webhook.test', overrides)).toMatchObject({
        field: path,
        reason: 'unknown_path',
      });
    }
  });

  it('names the path of a value of the wrong type or outside its rule', () => {
    expect(sandboxEventOverrideProblem('message.received', { 'data.message.text': 42 })).toEqual({
      field: 'data.message.text',
      reason: 'invalid_type',
      message: 'data.message.text must be a string of 1 to 4096 characters, got the number 42.',
    });
    expect(
      sandboxEventOverrideProblem('message.received', { 'data.message.text': 'x'.repeat(4097) }),
    ).toMatchObject({
      reason: 'invalid_value',
      message: 'data.message.text must be a string of 1 to 4096 characters, got a longer string.',
    });
    expect(sandboxEventOverrideProblem('message.received', { 'data.message.from': '0612' })).toEqual({
      field: 'data.message.from',
      reason: 'invalid_value',
      message:
        'data.message.from must be a phone number in international format (+ and 8 to 15 digits), got "0612".',
    });
    expect(sandboxEventOverrideProblem('message.status_updated', { 'data.message.status': 'lost' })).toEqual({
      field: 'data.message.status',
      reason: 'invalid_value',
      message: 'data.message.status must be one of queued, sent, delivered, read, failed, got "lost".',
    });
    expect(sandboxEventOverrideProblem('message.received', { 'data.message.text': null })).toMatchObject({
      reason: 'invalid_type',
    });
    expect(sandboxEventOverrideProblem('message.received', ['data.message.text'])).toMatchObject({
      field: 'overrides',
      reason: 'invalid_type',
    });
  });

  it('has rules for every sandbox event type, and none for ids, types or timestamps', () => {
    expect(Object.keys(SANDBOX_EVENT_OVERRIDES).sort()).toEqual([
      'connection.connected',
      'connection.disconnected',
      'message.received',
      'message.status_updated',
      'webhook.test',
    ]);
    const paths = Object.values(SANDBOX_EVENT_OVERRIDES).flatMap((rules) => Object.keys(rules));
    expect(paths.filter((path) => /(^|\.)(id|type|created_at|updated_at|livemode)$/.test(path))).toEqual([]);
  });
});
