import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, testEmulator, textSend } from '../_testing/test-emulator';
import { DEFAULT_APPLICATION_ID } from '../core/defaults';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';

// Magic sandbox recipients end to end: /v1 sends, the frozen clock moved to each step's exact age,
// GET /v1/messages/{id} read back, and the status events a real receiver on 127.0.0.1 got.
const receivers: TestReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function setup() {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const test = testEmulator();
  await test.emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
    url: receiver.url,
    events: ['message.status_updated'],
  });
  /** Moves the clock to `age` ms after T0 and waits for the deliveries it started. */
  const at = async (age: number) => {
    await test.emulator.clock.advance(age - (test.emulator.clock.now() - T0));
    await test.emulator.idle();
  };
  const statusOf = async (id: string) => {
    const { body } = await test.call('GET', `/v1/messages/${id}`);
    return [body.status, body.error?.code ?? null, body.updated_at];
  };
  /**
   * [to, status, error code, updated_at] of every status event received, by time then number
   * (deliveries due at the same instant travel in parallel, so they arrive in any order).
   */
  const events = () =>
    receiver.requests
      .map((request) => {
        const { message } = JSON.parse(request.body.toString()).data;
        return [message.to, message.status, message.error?.code ?? null, message.updated_at];
      })
      .sort((a, b) => `${a[3]}${a[0]}`.localeCompare(`${b[3]}${b[0]}`));
  return { ...test, at, statusOf, events };
}

const iso = (age: number) => new Date(T0 + age).toISOString().replace('.000Z', 'Z');

describe('magic recipients (sandbox)', () => {
  test('GET /_emulator/magic-numbers lists every number with its behaviour and description', async () => {
    const { call } = testEmulator();
    const { status, body } = await call('GET', '/_emulator/magic-numbers');
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(
      body.data.map((entry: { number: string; behaviour: string }) => [entry.number, entry.behaviour]),
    ).toEqual([
      ['+15550100000', 'unreachable'],
      ['+15550101001', 'stays_sent'],
      ['+15550101002', 'read'],
      ['+15550101003', 'late_delivery'],
      ['+15550101004', 'fails_after_sent'],
      ['+15550101005', 'connection_inactive'],
      ['+15550101006', 'rate_limited'],
    ]);
    for (const entry of body.data)
      expect(Object.keys(entry).sort()).toEqual(['behaviour', 'description', 'number']);
  });

  test('stays sent, reaches read, arrives at 60 s, fails after sent: statuses and events at exact ages', async () => {
    const { send, at, statusOf, events } = await setup();
    const ids: Record<string, string> = {};
    for (const to of ['+15550101001', '+15550101002', '+15550101003', '+15550101004']) {
      const answer = await send(textSend({ to }));
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ to, status: 'queued', error: null });
      ids[to] = answer.body.id;
    }
    await at(5_000);
    expect(await statusOf(ids['+15550101001']!)).toEqual(['sent', null, iso(2_000)]);
    expect(await statusOf(ids['+15550101002']!)).toEqual(['delivered', null, iso(5_000)]);
    expect(await statusOf(ids['+15550101003']!)).toEqual(['sent', null, iso(2_000)]);
    expect(await statusOf(ids['+15550101004']!)).toEqual(['failed', 'message_undeliverable', iso(5_000)]);
    await at(59_999);
    expect(await statusOf(ids['+15550101002']!)).toEqual(['read', null, iso(10_000)]);
    expect(await statusOf(ids['+15550101003']!)).toEqual(['sent', null, iso(2_000)]);
    await at(60_000);
    expect(await statusOf(ids['+15550101003']!)).toEqual(['delivered', null, iso(60_000)]);
    await at(86_400_000);
    expect(await statusOf(ids['+15550101001']!)).toEqual(['sent', null, iso(2_000)]);
    // One event per step, each received once.
    expect(events()).toEqual([
      ['+15550101001', 'sent', null, iso(2_000)],
      ['+15550101002', 'sent', null, iso(2_000)],
      ['+15550101003', 'sent', null, iso(2_000)],
      ['+15550101004', 'sent', null, iso(2_000)],
      ['+15550101002', 'delivered', null, iso(5_000)],
      ['+15550101004', 'failed', 'message_undeliverable', iso(5_000)],
      ['+15550101002', 'read', null, iso(10_000)],
      ['+15550101003', 'delivered', null, iso(60_000)],
    ]);
  });

  test('a late delivery does not hold back ordinary messages sent after it', async () => {
    const { send, at, statusOf } = await setup();
    await send(textSend({ to: '+15550101003' }));
    const ordinary = (await send(textSend({ to: '+33612345678' }))).body.id;
    await at(5_000);
    expect(await statusOf(ordinary)).toEqual(['delivered', null, iso(5_000)]);
  });

  test('…0000 is accepted as failed at once with recipient_unreachable (the spec rule), any prefix', async () => {
    const { send, at, events } = await setup();
    const answer = await send(textSend({ to: '+15550100000' }));
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ status: 'failed', error: { code: 'recipient_unreachable' } });
    expect((await send(textSend({ to: '+4915112340000' }))).body.status).toBe('failed');
    await at(0);
    expect(events()).toEqual([
      ['+15550100000', 'failed', 'recipient_unreachable', iso(0)],
      ['+4915112340000', 'failed', 'recipient_unreachable', iso(0)],
    ]);
  });

  test('+15550101005: 409 connection_inactive; +15550101006: 429 rate_limited with Retry-After 1; nothing stored or counted', async () => {
    const { send, call, events } = await setup();
    const inactive = await send(textSend({ to: '+15550101005' }));
    expect(inactive.status).toBe(409);
    expect(inactive.body.error).toMatchObject({
      code: 'connection_inactive',
      request_id: inactive.headers.get('x-request-id'),
      details: { connection_id: SANDBOX_ACTIVE_CONNECTION_ID },
    });
    const limited = await send(textSend({ to: '+15550101006' }));
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', details: { bucket: 'sends' } });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('ratelimit-limit')).toBe('30');
    const messages = await call('GET', '/_emulator/messages');
    expect(messages.body.data).toEqual([]);
    // The 409 counted as a request (like any answered error); the 429 consumed nothing.
    const usage = await call('GET', `/_emulator/usage?application_id=${DEFAULT_APPLICATION_ID}`);
    expect(usage.body.keys[0].buckets.sends.used).toBe(1);
    expect(events()).toEqual([]);
  });

  test('live applications have no magic numbers: the same number is an ordinary recipient', async () => {
    const { emulator, call } = testEmulator();
    const app = await emulator.control.createApplication({ name: 'Live', environment: 'live' });
    const { key } = await emulator.control.createKey(app.id, { accept_agreement: true });
    const connection = await emulator.control.createConnection(app.id, { phone_number: '+15550100077' });
    const sent = await call('POST', '/v1/messages', {
      key,
      idempotencyKey: 'live-1',
      body: {
        connection_id: connection.id,
        to: '+15550101005',
        type: 'template',
        template: { name: 'hello_world', language: 'en' },
      },
    });
    expect(sent.status).toBe(202);
    await emulator.clock.advance(10_000);
    expect((await call('GET', `/v1/messages/${sent.body.id}`, { key })).body.status).toBe('read');
  });
});
