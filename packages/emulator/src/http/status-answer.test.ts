import { describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator } from '../_testing/test-emulator';

// `GET /v1/status` keeps each key's answer until its second passes (`core/status.ts`, issue 23):
// what it answers must still be the key's own and the second's own.
describe('GET /v1/status answers', () => {
  test('within one second a key gets the same answer; once the second passes, the new timestamp', async () => {
    const { call, emulator } = testEmulator();
    const first = await call('GET', '/v1/status');
    const again = await call('GET', '/v1/status');
    expect(again.body).toEqual(first.body);
    expect(first.body.timestamp).toBe('2026-10-14T09:30:15Z');
    await emulator.clock.advance(999);
    expect((await call('GET', '/v1/status')).body.timestamp).toBe('2026-10-14T09:30:15Z');
    await emulator.clock.advance(1);
    const next = await call('GET', '/v1/status');
    expect(next.body).toEqual({ ...first.body, timestamp: '2026-10-14T09:30:16Z' });
    // Each answer keeps its own request id.
    expect(next.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  test('keys of other applications asking in the same second get their own answers', async () => {
    const { call, emulator } = testEmulator();
    const sandbox = await call('GET', '/v1/status');
    const other = await createAppWithKey(emulator, 'sandbox', { scopes: ['system.status.read'] });
    const live = await createAppWithKey(emulator, 'live');
    const otherAnswer = await call('GET', '/v1/status', { key: other.key });
    const liveAnswer = await call('GET', '/v1/status', { key: live.key });
    expect(otherAnswer.body.application_id).toBe(other.app.id);
    expect(otherAnswer.body.scopes).toEqual(['system.status.read']);
    expect(liveAnswer.body.application_id).toBe(live.app.id);
    expect(liveAnswer.body.environment).toBe('live');
    // And the first key's answer is still its own.
    expect((await call('GET', '/v1/status')).body).toEqual(sandbox.body);
  });
});
