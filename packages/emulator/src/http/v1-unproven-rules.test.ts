import { describe, expect, test } from 'vitest';
import { createAppWithKey, templateSend, testEmulator, textSend } from '../_testing/test-emulator';
import { RATE_LIMITS } from '../domain/rate-limit-window';

describe('rules that were implemented but never asserted', () => {
  test('POST /messages refused because the requests bucket is exhausted: bucket requests and its headers', async () => {
    const { call, send } = testEmulator();
    for (let index = 0; index < RATE_LIMITS.requests; index++)
      expect((await call('GET', '/v1/status')).status).toBe(200);
    const refused = await send(templateSend());
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', details: { bucket: 'requests' } });
    expect(refused.headers.get('ratelimit-limit')).toBe(String(RATE_LIMITS.requests));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // T0 is 15 s past the minute: the window resets in 45 s.
    expect(refused.headers.get('ratelimit-reset')).toBe('45');
    expect(refused.headers.get('retry-after')).toBe('45');
  });

  test('a live send to a number ending in 0000 is not failed (only the sandbox has that rule)', async () => {
    const { call, emulator, send } = testEmulator();
    const { app, key } = await createAppWithKey(emulator, 'live');
    const connection = await emulator.control.createConnection(app.id, { phone_number: '+33100000001' });
    const accepted = await send(templateSend({ connection_id: connection.id, to: '+33600000000' }), { key });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      status: 'queued',
      error: null,
      to: '+33600000000',
      livemode: true,
    });
    await emulator.clock.advance(5_000);
    expect((await call('GET', `/v1/messages/${accepted.body.id}`, { key })).body.status).toBe('delivered');
    // The same number in the sandbox fails at once (spec 3.2).
    const sandbox = await send(textSend({ to: '+33600000000' }));
    expect(sandbox.body).toMatchObject({ status: 'failed', error: { code: 'recipient_unreachable' } });
  });
});
