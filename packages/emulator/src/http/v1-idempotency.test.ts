import { describe, expect, test } from 'vitest';
import { templateSend, testEmulator } from '../_testing/test-emulator';

describe('idempotency (DESIGN §2)', () => {
  test('same key + same body: the original 202 again, Idempotent-Replayed, no new message, no send counted', async () => {
    const { send, emulator } = testEmulator();
    const first = await send(templateSend(), { idempotencyKey: 'order-1042' });
    await emulator.clock.advance(3_000);
    // Same JSON with keys in another order is the same body.
    const reordered = Object.fromEntries(Object.entries(templateSend()).reverse());
    const again = await send(reordered, { idempotencyKey: 'order-1042' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.status).toBe('queued');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await emulator.control.listMessages()).data).toHaveLength(1);
    expect((await emulator.control.usage()).keys[0]!.buckets.sends.used).toBe(1);
    expect((await emulator.control.usage()).keys[0]!.buckets.requests.used).toBe(2);
  });

  test('a replay is answered even when the sends bucket is exhausted', async () => {
    const { send } = testEmulator();
    const first = await send(templateSend(), { idempotencyKey: 'first' });
    for (let index = 0; index < 29; index++) await send(templateSend());
    expect((await send(templateSend())).status).toBe(429);
    const replay = await send(templateSend(), { idempotencyKey: 'first' });
    expect(replay.status).toBe(202);
    expect(replay.body.id).toBe(first.body.id);
  });

  test('same key + another body: 409 idempotency_key_reused', async () => {
    const { send } = testEmulator();
    await send(templateSend(), { idempotencyKey: 'k' });
    const reused = await send(templateSend({ to: '+33700000001' }), { idempotencyKey: 'k' });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  test('same key while the first request is still in flight: 409 idempotency_key_in_use', async () => {
    const { emulator, send } = testEmulator();
    let finishBody: () => void = () => {};
    const bytes = new TextEncoder().encode(JSON.stringify(templateSend()));
    const slowBody = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        finishBody = () => {
          controller.enqueue(bytes.slice(10));
          controller.close();
        };
      },
    });
    const first = emulator.fetch(
      new Request('http://127.0.0.1:4010/v1/messages', {
        method: 'POST',
        body: slowBody,
        duplex: 'half',
        headers: {
          authorization: `Bearer ${emulator.sandboxKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'slow',
        },
      } as RequestInit),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const second = await send(templateSend(), { idempotencyKey: 'slow' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('idempotency_key_in_use');
    finishBody();
    expect((await first).status).toBe(202);
    const after = await send(templateSend(), { idempotencyKey: 'slow' });
    expect(after.headers.get('idempotent-replayed')).toBe('true');
  });

  test('keys are scoped to the API key', async () => {
    const { send, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const other = await emulator.control.createKey(app.id, {});
    const first = await send(templateSend(), { idempotencyKey: 'shared' });
    const second = await send(templateSend(), { idempotencyKey: 'shared', key: other.key });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
  });

  test('kept 24 hours: after that the same key sends a new message', async () => {
    const { send, emulator } = testEmulator();
    const first = await send(templateSend(), { idempotencyKey: 'daily' });
    await emulator.clock.advance(24 * 3_600_000 - 1);
    expect((await send(templateSend(), { idempotencyKey: 'daily' })).body.id).toBe(first.body.id);
    await emulator.clock.advance(1);
    const fresh = await send(templateSend(), { idempotencyKey: 'daily' });
    expect(fresh.status).toBe(202);
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  test('a refused send does not use up its key: fix the body and retry with the same key', async () => {
    const { send } = testEmulator();
    const refused = await send(templateSend({ to: 'nope' }), { idempotencyKey: 'retry-me' });
    expect(refused.status).toBe(400);
    expect((await send(templateSend(), { idempotencyKey: 'retry-me' })).status).toBe(202);
  });

  test('missing key: 400 idempotency_key_required; empty, too long or non-printable: 400 validation_error', async () => {
    const { call } = testEmulator();
    const missing = await call('POST', '/v1/messages', { body: templateSend() });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('idempotency_key_required');
    for (const key of ['k'.repeat(256), 'tab\there', 'é']) {
      const answer = await call('POST', '/v1/messages', {
        body: templateSend(),
        headers: { 'idempotency-key': key },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual({ field: 'Idempotency-Key', reason: 'invalid_format' });
    }
    const longest = await call('POST', '/v1/messages', {
      body: templateSend(),
      idempotencyKey: '~'.repeat(255),
    });
    expect(longest.status).toBe(202);
  });
});
