import { describe, expect, test } from 'vitest';
import { templateSend, testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';

const TEMPLATES = `/v1/connections/${SANDBOX_ACTIVE_CONNECTION_ID}/templates`;
// T0 is 15 s into its minute: 45 s remain in the window.
const RESET = '45';

describe('rate limits (spec 8, DESIGN §2)', () => {
  test('requests: 60 per minute, then 429 rate_limited with bucket, Retry-After and headers', async () => {
    const { call } = testEmulator();
    for (let index = 1; index <= 60; index++) {
      const answer = await call('GET', '/v1/status');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('60');
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(60 - index));
      expect(answer.headers.get('ratelimit-reset')).toBe(RESET);
    }
    const refused = await call('GET', '/v1/status');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.details).toEqual({ bucket: 'requests' });
    expect(refused.headers.get('retry-after')).toBe(RESET);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });

  test('windows align to clock minutes: the next minute starts fresh', async () => {
    const { call, emulator } = testEmulator();
    for (let index = 0; index < 60; index++) await call('GET', '/v1/status');
    expect((await call('GET', '/v1/status')).status).toBe(429);
    await emulator.clock.advance(44_999);
    expect((await call('GET', '/v1/status')).headers.get('retry-after')).toBe('1');
    await emulator.clock.advance(1);
    const fresh = await call('GET', '/v1/status');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('ratelimit-remaining')).toBe('59');
    expect(fresh.headers.get('ratelimit-reset')).toBe('60');
  });

  test('sends: 30 per minute, reported in the sends bucket; the 31st is refused', async () => {
    const { send } = testEmulator();
    for (let index = 1; index <= 30; index++) {
      const answer = await send(templateSend());
      expect(answer.status).toBe(202);
      expect(answer.headers.get('ratelimit-limit')).toBe('30');
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(30 - index));
    }
    const refused = await send(templateSend());
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toEqual({ bucket: 'sends' });
    expect(refused.headers.get('retry-after')).toBe(RESET);
  });

  test('templates: 10 per minute in their own bucket, and they also count as requests', async () => {
    const { call } = testEmulator();
    for (let index = 1; index <= 10; index++) {
      const answer = await call('GET', TEMPLATES);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('10');
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(10 - index));
    }
    const refused = await call('GET', TEMPLATES);
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toEqual({ bucket: 'templates' });
    const status = await call('GET', '/v1/status');
    expect(status.headers.get('ratelimit-remaining')).toBe(String(60 - 10 - 1));
  });

  test('a refused call consumes nothing', async () => {
    const { call } = testEmulator();
    for (let index = 0; index < 10; index++) await call('GET', TEMPLATES);
    for (let index = 0; index < 5; index++) expect((await call('GET', TEMPLATES)).status).toBe(429);
    const status = await call('GET', '/v1/status');
    expect(status.headers.get('ratelimit-remaining')).toBe(String(60 - 10 - 1));
  });

  test('failed calls (404, 400, 403) still count: every authenticated request does', async () => {
    const { call } = testEmulator();
    await call('GET', '/v1/messages/not-a-uuid');
    await call('POST', '/v1/sandbox/events', { body: { type: 'nope' } });
    const status = await call('GET', '/v1/status');
    expect(status.headers.get('ratelimit-remaining')).toBe('57');
  });

  test('limits are per key', async () => {
    const { call, emulator } = testEmulator();
    for (let index = 0; index < 60; index++) await call('GET', '/v1/status');
    const app = (await emulator.control.listApplications()).data[0]!;
    const other = await emulator.control.createKey(app.id, {});
    expect((await call('GET', '/v1/status', { key: other.key })).status).toBe(200);
    expect((await call('GET', '/v1/status')).status).toBe(429);
  });

  test('rateLimits: false never refuses and sends no RateLimit headers', async () => {
    const { call } = testEmulator({ rateLimits: false });
    for (let index = 0; index < 70; index++) expect((await call('GET', '/v1/status')).status).toBe(200);
    expect((await call('GET', '/v1/status')).headers.get('ratelimit-limit')).toBeNull();
  });

  test('usage shows the current window of each key', async () => {
    const { call, emulator, send } = testEmulator();
    await call('GET', '/v1/status');
    await send(templateSend());
    const usage = await emulator.control.usage();
    const key = usage.keys[0]!;
    expect(key.buckets.requests).toMatchObject({ limit: 60, used: 2, remaining: 58 });
    expect(key.buckets.sends).toMatchObject({ limit: 30, used: 1, remaining: 29 });
    expect(key.buckets.templates).toMatchObject({ used: 0 });
  });
});
