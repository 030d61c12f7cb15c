import { describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator, textSend } from '../_testing/test-emulator';
import { DEFAULT_KEY_ID } from '../core/defaults';

// Injected faults in process: `emulator.fetch` is the whole app, exactly what the server runs.
const errorFault = (extra: object = {}) => ({
  method: 'POST',
  path: '/v1/messages',
  times: 2,
  fault: { status: 503, code: 'service_unavailable' },
  ...extra,
});

/** The /v1 request items of the activity feed, oldest first: [status, fault id or null]. */
async function requestActivity(call: ReturnType<typeof testEmulator>['call']) {
  const { body } = await call('GET', '/_emulator/activity?type=request&limit=100');
  return body.data
    .filter((item: { kind: string }) => item.kind === 'request')
    .reverse()
    .map((item: { status: number; fault?: string }) => [item.status, item.fault ?? null]);
}

describe('POST/GET/DELETE /_emulator/faults', () => {
  test('201 with the fault, listed in the list envelope, deleted one by one or all at once', async () => {
    const { call } = testEmulator();
    const created = await call('POST', '/_emulator/faults', { body: errorFault({ key_id: DEFAULT_KEY_ID }) });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'fault',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'POST',
      path: '/v1/messages',
      key_id: DEFAULT_KEY_ID,
      key_prefix: null,
      times: 2,
      remaining: 2,
      fault: { status: 503, code: 'service_unavailable' },
      workspace_id: 'a7e1c0de-0000-4000-8000-000000000001',
      created_at: '2026-10-14T09:30:15Z',
    });
    const second = await call('POST', '/_emulator/faults', { body: { fault: { drop: true } } });
    const listed = await call('GET', '/_emulator/faults');
    expect(listed.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(listed.body.data.map((fault: { id: string }) => fault.id)).toEqual([
      created.body.id,
      second.body.id,
    ]);
    expect((await call('DELETE', `/_emulator/faults/${created.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/_emulator/faults/${created.body.id}`)).status).toBe(404);
    expect((await call('DELETE', '/_emulator/faults/not-a-uuid')).body.error.code).toBe('not_found');
    expect((await call('DELETE', '/_emulator/faults')).status).toBe(204);
    expect((await call('GET', '/_emulator/faults')).body.data).toEqual([]);
  });

  test('refused input: 400 validation_error naming the field; an unknown key_id is 404', async () => {
    const { call } = testEmulator();
    const bad = await call('POST', '/_emulator/faults', { body: { fault: { status: 503 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ field: 'fault', reason: 'invalid_value' });
    const unknown = await call('POST', '/_emulator/faults', {
      body: { key_id: 'a7e1c0de-0000-4000-8000-0000000000ff', fault: { drop: true } },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details).toEqual({ field: 'key_id' });
  });
});

describe('injected answers', () => {
  test('an error: the next N matching requests get it in the error format, then the real API answers', async () => {
    const { call, send } = testEmulator();
    const { body: fault } = await call('POST', '/_emulator/faults', {
      body: errorFault({ times: 2, fault: { status: 429, code: 'rate_limited', retry_after: 7 } }),
    });
    for (const remaining of [1, 0]) {
      const answer = await send(textSend());
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('7');
      expect(answer.body).toEqual({
        error: {
          code: 'rate_limited',
          message: `Injected by the emulator (fault ${fault.id}).`,
          request_id: answer.headers.get('x-request-id'),
          details: { fault_id: fault.id },
        },
      });
      expect((await call('GET', '/_emulator/faults')).body.data[0].remaining).toBe(remaining);
    }
    expect((await call('GET', '/v1/status')).status).toBe(200);
    expect((await send(textSend())).status).toBe(202);
    expect(await requestActivity(call)).toEqual([
      [429, fault.id],
      [429, fault.id],
      [200, null],
      [202, null],
    ]);
    // Injected answers consumed nothing: only the real status and send count.
    const usage = await call('GET', '/_emulator/usage');
    expect(usage.body.keys[0].buckets.requests.used).toBe(2);
    expect((await call('GET', '/_emulator/messages')).body.data).toHaveLength(1);
  });

  test('method, path (with *), key_id and key_prefix choose the requests; others are untouched', async () => {
    const { emulator, call, send } = testEmulator();
    const other = await createAppWithKey(emulator, 'sandbox');
    await call('POST', '/_emulator/faults', {
      body: {
        path: '/v1/messages/*',
        key_id: DEFAULT_KEY_ID,
        times: 5,
        fault: { status: 500, code: 'internal_error' },
      },
    });
    await call('POST', '/_emulator/faults', {
      body: {
        method: 'GET',
        key_prefix: other.key.slice(0, 20),
        fault: { status: 502, code: 'bad_gateway' },
      },
    });
    const { body: message } = await send(textSend());
    expect((await call('GET', `/v1/messages/${message.id}`)).status).toBe(500);
    expect((await call('GET', '/v1/status')).status).toBe(200);
    expect((await call('GET', '/v1/status', { key: other.key })).status).toBe(502);
    expect((await call('GET', '/v1/status', { key: other.key })).status).toBe(200);
    expect((await call('GET', `/v1/messages/${message.id}`, { key: other.key })).status).toBe(404);
  });

  test('a delay: the real answer, that many real milliseconds late', async () => {
    const { call, send } = testEmulator();
    const { body: fault } = await call('POST', '/_emulator/faults', { body: { fault: { delay_ms: 150 } } });
    const started = performance.now();
    const answer = await send(textSend());
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('queued');
    expect(await requestActivity(call)).toEqual([[202, fault.id]]);
  });

  test('a hang: no answer until the client gives up; nothing reaches the API', async () => {
    const { emulator, call } = testEmulator();
    const { body: fault } = await call('POST', '/_emulator/faults', { body: { fault: { hang: true } } });
    const request = new Request('http://127.0.0.1:4010/v1/messages', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${emulator.sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'hang-1',
      },
      body: JSON.stringify(textSend()),
      signal: AbortSignal.timeout(100),
    });
    const answer = emulator.fetch(request);
    const outcome = await Promise.race([
      answer.then(
        () => 'answered',
        () => 'rejected',
      ),
      new Promise((resolve) => setTimeout(resolve, 80, 'waiting')),
    ]);
    expect(outcome).toBe('waiting');
    await expect(answer).rejects.toThrow(TypeError);
    expect(await requestActivity(call)).toEqual([[0, fault.id]]);
    expect((await call('GET', '/_emulator/messages')).body.data).toEqual([]);
  });

  test('a drop: emulator.fetch rejects like fetch on a reset connection', async () => {
    const { emulator, call } = testEmulator();
    const { body: fault } = await call('POST', '/_emulator/faults', { body: { fault: { drop: true } } });
    await expect(call('GET', '/v1/status')).rejects.toThrow(new TypeError('fetch failed'));
    expect((await call('GET', '/v1/status')).status).toBe(200);
    expect(await requestActivity(call)).toEqual([
      [0, fault.id],
      [200, null],
    ]);
    await emulator.close();
  });

  test('closing the emulator ends a hang; POST /reset clears every fault', async () => {
    const first = testEmulator();
    await first.call('POST', '/_emulator/faults', { body: { fault: { hang: true } } });
    const hung = first.call('GET', '/v1/status');
    await first.emulator.close();
    await expect(hung).rejects.toThrow(TypeError);
    const second = testEmulator();
    await second.call('POST', '/_emulator/faults', { body: { times: 3, fault: { drop: true } } });
    await second.call('POST', '/_emulator/reset');
    expect((await second.call('GET', '/_emulator/faults')).body.data).toEqual([]);
    expect((await second.call('GET', '/v1/status')).status).toBe(200);
  });
});
