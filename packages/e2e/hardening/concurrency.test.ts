import { type EmulatorServer, RATE_LIMITS, startEmulatorServer } from '@parley/emulator';
import { afterEach, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

let server: EmulatorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sendBody = JSON.stringify({
  type: 'template',
  connection_id: ACTIVE_CONNECTION,
  to: '+33612345678',
  template: { name: 'hello_world', language: 'en', variables: [] },
});

function post(base: string, key: string, idempotencyKey: string): Promise<Response> {
  return fetch(`${base}/messages`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey,
    },
    body: sendBody,
  });
}

describe('concurrency over a real socket', () => {
  test('100 concurrent sends with one Idempotency-Key create exactly one message', async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen', rateLimits: false });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post(server!.baseUrl, server!.sandboxKey, 'one-key-for-all')),
    );
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    const accepted = answers.filter((answer) => answer.status === 202);
    const inUse = bodies.filter((body) => body.error?.code === 'idempotency_key_in_use');
    expect(accepted.length + inUse.length).toBe(100);
    const ids = new Set(bodies.filter((body) => body.object === 'message').map((body) => body.id));
    expect(ids.size).toBe(1);
    expect((await server.emulator.control.listMessages()).data.length).toBe(1);
    const replayed = accepted.filter((answer) => answer.headers.get('idempotent-replayed') === 'true').length;
    expect(replayed).toBe(accepted.length - 1);
    recordFigure({
      test: 'concurrency: one Idempotency-Key',
      load: '100 concurrent POST /v1/messages over one socket pool',
      proved: 'exactly one message; every other answer is a replay of it or 409 idempotency_key_in_use',
      figures: `1 message; ${accepted.length} × 202 (${replayed} replays), ${inUse.length} × 409 in use`,
    });
  });

  test.each([
    ['sends', RATE_LIMITS.sends],
    ['requests', RATE_LIMITS.requests],
  ] as const)('N parallel requests against the %s bucket of L accept exactly L', async (bucket, limit) => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    const total = limit * 3;
    const answers = await Promise.all(
      Array.from({ length: total }, (_, index) =>
        bucket === 'sends'
          ? post(server!.baseUrl, server!.sandboxKey, `bucket-${index}`)
          : fetch(`${server!.baseUrl}/status`, {
              headers: { authorization: `Bearer ${server!.sandboxKey}` },
            }),
      ),
    );
    const refused = await Promise.all(
      answers.filter((answer) => answer.status === 429).map(async (answer) => (await answer.json()).error),
    );
    const accepted = answers.filter((answer) => answer.status === (bucket === 'sends' ? 202 : 200)).length;
    expect(accepted).toBe(limit);
    expect(refused.length).toBe(total - limit);
    for (const error of refused) expect(error).toMatchObject({ code: 'rate_limited', details: { bucket } });
    if (bucket === 'sends')
      expect((await server.emulator.control.listMessages({ limit: 100 })).data.length).toBe(limit);
    recordFigure({
      test: `concurrency: ${bucket} bucket`,
      load: `${total} parallel requests against a bucket of ${limit}`,
      proved:
        'exactly L accepted, the rest 429 rate_limited naming the bucket; a refused call consumes nothing',
      figures: `${accepted} accepted, ${refused.length} × 429`,
    });
  });
});
