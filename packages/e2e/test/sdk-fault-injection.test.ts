import {
  createEmulator,
  type EmulatorServer,
  SANDBOX_ACTIVE_CONNECTION_ID,
  startEmulatorServer,
} from '@parley/emulator';
import { createControlClient, type FaultAnswer } from '@parley/emulator/control';
import { ConnectionError, Parley, type SendMessageParams, TimeoutError } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The SDK's retry and timeout rules (DESIGN §5) tested through the emulator's injected faults, over
// a real socket: what the SDK puts on the wire is recorded by the `fetch` it is given (the real one).
let server: EmulatorServer;

beforeEach(async () => {
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});

afterEach(async () => {
  await server.close();
});

const params: SendMessageParams = {
  connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
  to: '+33612345678',
  type: 'text',
  text: 'Votre commande est prête.',
};

const control = () => createControlClient({ baseUrl: server.url });

/** A fault on the next `times` sends of the sandbox key (its display prefix: `prl_sandbox_parl`). */
const sendFault = (times: number, fault: FaultAnswer) =>
  control().createFault({
    method: 'POST',
    path: '/v1/messages',
    key_prefix: server.sandboxKey.slice(0, 16),
    times,
    fault,
  });

/** An SDK client over the real network; `attempts` holds each request's Idempotency-Key and send time. */
function client(options: { timeout?: number; maxRetries?: number } = {}) {
  const attempts: { idempotencyKey: string | null; at: number }[] = [];
  const parley = new Parley({
    apiKey: server.sandboxKey,
    baseUrl: server.baseUrl,
    ...options,
    fetch: (input, init) => {
      const request = new Request(input, init);
      attempts.push({ idempotencyKey: request.headers.get('idempotency-key'), at: performance.now() });
      return fetch(request);
    },
  });
  return { parley, attempts };
}

/** [status, fault id or null] of the /v1 requests the emulator saw, oldest first. */
async function seen() {
  // The activity list is the stream's companion, not a control method: read over HTTP as it is.
  const { data } = await (await fetch(`${server.controlUrl}/activity?type=request`)).json();
  return data.reverse().map((item: { status: number; fault?: string }) => [item.status, item.fault ?? null]);
}

describe('SDK retries against injected faults', () => {
  it('503 then success: retried with the same Idempotency-Key, one message stored', async () => {
    const fault = await sendFault(1, { status: 503, code: 'service_unavailable' });
    const { parley, attempts } = client();
    const message = await parley.messages.send(params);
    expect(message.status).toBe('queued');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.idempotencyKey).toMatch(/\S/);
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    expect(await seen()).toEqual([
      [503, fault.id],
      [202, null],
    ]);
    expect((await control().listMessages()).data.map((stored) => stored.id)).toEqual([message.id]);
  });

  it('429 rate_limited with Retry-After: 1 is waited for, then retried', async () => {
    await sendFault(1, { status: 429, code: 'rate_limited', retry_after: 1 });
    const { parley, attempts } = client();
    await parley.messages.send(params, { idempotencyKey: 'order-1042' });
    expect(attempts.map((attempt) => attempt.idempotencyKey)).toEqual(['order-1042', 'order-1042']);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('a hang past `timeout` is a TimeoutError once retries run out; with one left, the retry succeeds', async () => {
    await sendFault(1, { hang: true });
    const recovering = client({ timeout: 250, maxRetries: 2 });
    const message = await recovering.parley.messages.send(params);
    expect(message.status).toBe('queued');
    expect(recovering.attempts).toHaveLength(2);
    expect(recovering.attempts[1]!.idempotencyKey).toBe(recovering.attempts[0]!.idempotencyKey);

    await sendFault(3, { hang: true });
    const failing = client({ timeout: 250, maxRetries: 2 });
    const error = await failing.parley.messages.send(params).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/POST \/v1\/messages timed out after 3 attempts/);
    expect(failing.attempts).toHaveLength(3);
    expect(new Set(failing.attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
  });

  it('a dropped connection is a ConnectionError once retries run out; with one left, the retry succeeds', async () => {
    await sendFault(1, { drop: true });
    const recovering = client({ maxRetries: 1 });
    expect((await recovering.parley.messages.send(params)).status).toBe('queued');
    expect(recovering.attempts).toHaveLength(2);

    const fault = await control().createFault({ path: '/v1/status', times: 2, fault: { drop: true } });
    const failing = client({ maxRetries: 1 });
    const error = await failing.parley.status.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(failing.attempts).toHaveLength(2);
    expect((await control().listFaults()).data.find((listed) => listed.id === fault.id)).toMatchObject({
      remaining: 0,
    });
  });
});

describe('the same in process (emulator.fetch as the SDK fetch)', () => {
  it('a hang past `timeout` is retried, and the third attempt succeeds', async () => {
    const emulator = createEmulator({ clock: 'frozen' });
    try {
      const attempts: string[] = [];
      const parley = new Parley({
        apiKey: emulator.sandboxKey,
        baseUrl: 'http://127.0.0.1:4010/v1',
        timeout: 200,
        maxRetries: 2,
        fetch: (input, init) => {
          const request = new Request(input, init);
          attempts.push(request.headers.get('idempotency-key') ?? '');
          return emulator.fetch(request);
        },
      });
      await emulator.control.createFault({
        method: 'POST',
        path: '/v1/messages',
        times: 2,
        fault: { hang: true },
      });
      expect((await parley.messages.send(params)).status).toBe('queued');
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts).size).toBe(1);
      await emulator.control.createFault({ path: '/v1/status', fault: { drop: true } });
      await expect(parley.status.get({ maxRetries: 0 })).rejects.toBeInstanceOf(ConnectionError);
    } finally {
      await emulator.close();
    }
  });
});
