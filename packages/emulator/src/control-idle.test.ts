import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from './_testing/test-emulator';
import { createControlClient, type EmulatorControl } from './control';
import { DEFAULT_APPLICATION_ID } from './core/defaults';
import { type EmulatorServer, startEmulatorServer } from './server/start-server';

/**
 * `GET /_emulator/idle?timeout_ms=N` and `emulator.control.idle({ timeoutMs })` (DESIGN §4): idle
 * once no delivery attempt is in flight and nothing is due at the current clock time; at the
 * timeout `{ idle: false, in_flight }`; timeout_ms 1–60,000 (default 10,000), else 400.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A receiver that holds each request until the test answers it. */
async function heldReceiver() {
  const waiting: ServerResponse[] = [];
  const arrivals: (() => void)[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      waiting.push(response);
      arrivals.shift()?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** Resolves once a request is held (at once when one already is). */
    arrived: () => new Promise<void>((resolve) => (waiting.length > 0 ? resolve() : arrivals.push(resolve))),
    answer(status: number) {
      for (const response of waiting.splice(0)) response.writeHead(status).end();
    },
  };
}

async function overHttp(): Promise<{ control: EmulatorControl; server: EmulatorServer }> {
  const server = await startEmulatorServer({
    port: 0,
    clock: 'frozen',
    now: Date.parse('2026-10-14T09:30:15Z'),
  });
  cleanups.push(() => server.close());
  return { control: createControlClient({ baseUrl: server.baseUrl }), server };
}

const transports = {
  'in process': async () => testEmulator().emulator.control,
  'over HTTP': async () => (await overHttp()).control,
};

describe.each(Object.entries(transports))('idle, %s', (_, open) => {
  test('a quiet emulator is idle at once: within a 1 ms timeout', async () => {
    const control = await open();
    expect(await control.idle({ timeoutMs: 1 })).toEqual({ idle: true });
    expect(await control.idle()).toEqual({ idle: true });
  });

  test('a delivery due now is attempted before the answer; one due later is not waited for', async () => {
    const control = await open();
    const receiver = await heldReceiver();
    const endpoint = await control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: receiver.url,
      events: ['webhook.test'],
    });
    await control.testEndpoint(endpoint.id);
    await receiver.arrived();
    // Held by the receiver: in flight until the timeout.
    expect(await control.idle({ timeoutMs: 20 })).toEqual({ idle: false, in_flight: 1 });
    receiver.answer(500);
    expect(await control.idle({ timeoutMs: 60_000 })).toEqual({ idle: true });
    const [delivery] = (await control.listDeliveries({ endpointId: endpoint.id })).data;
    // The retry is due 60 s later on a frozen clock: idle does not move the clock to it.
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: [{ status_code: 500 }],
      next_attempt_at: '2026-10-14T09:31:15.000Z',
    });
    expect(await control.getClock()).toEqual({ now: '2026-10-14T09:30:15.000Z', mode: 'frozen' });
  });

  test('timeout_ms is 1 to 60000: 0, 60001, a fraction and no number are 400 validation_error', async () => {
    const control = await open();
    expect(await control.idle({ timeoutMs: 60_000 })).toEqual({ idle: true });
    for (const timeoutMs of [0, 60_001, 1.5, Number.NaN, -1]) {
      await expect(control.idle({ timeoutMs })).rejects.toMatchObject({
        status: 400,
        code: 'validation_error',
        message: 'timeout_ms must be a whole number of milliseconds from 1 to 60000.',
        details: { field: 'timeout_ms', reason: 'invalid_value' },
      });
    }
  });
});

describe('idle, in process', () => {
  test('waits for the attempt in flight: it answers only once the receiver has answered and the attempt is recorded', async () => {
    const { emulator } = testEmulator();
    const receiver = await heldReceiver();
    const endpoint = await emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: receiver.url,
      events: ['webhook.test'],
    });
    await emulator.control.testEndpoint(endpoint.id);
    // Asked before the receiver has the request: the answer must wait for the attempt to end.
    const idle = emulator.control.idle({ timeoutMs: 60_000 }).then(async (answer) => ({
      answer,
      deliveries: (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data,
    }));
    await receiver.arrived();
    receiver.answer(204);
    const { answer, deliveries } = await idle;
    expect(answer).toEqual({ idle: true });
    expect(deliveries).toMatchObject([{ status: 'delivered', attempts: [{ status_code: 204 }] }]);
  });
});

describe('GET /_emulator/idle', () => {
  test('the query parameter: absent is the default wait; empty, digits past the bound or text are 400', async () => {
    const { server } = await overHttp();
    const idle = (query: string) => fetch(`${server.url}/_emulator/idle${query}`);
    const quiet = await idle('');
    expect(quiet.status).toBe(200);
    expect(await quiet.json()).toEqual({ idle: true });
    expect(await (await idle('?timeout_ms=1')).json()).toEqual({ idle: true });
    for (const query of [
      '?timeout_ms=',
      '?timeout_ms=0',
      '?timeout_ms=60001',
      '?timeout_ms=1e3',
      '?timeout_ms=abc',
    ]) {
      const refused = await idle(query);
      expect(refused.status, query).toBe(400);
      expect((await refused.json()).error).toMatchObject({
        code: 'validation_error',
        details: { field: 'timeout_ms', reason: 'invalid_value' },
      });
    }
  });
});
