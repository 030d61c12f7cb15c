import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { type EmulatorServer, startEmulatorServer } from './start-server';

// Injected faults over a real socket: a drop resets the TCP connection, a hang holds it open until
// the client closes it, and the server keeps serving afterwards.
const servers: EmulatorServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start() {
  const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  servers.push(server);
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${server.controlUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((response) => (response.status === 204 ? null : response.json()));
  const status = (init: RequestInit = {}) =>
    fetch(`${server.baseUrl}/status`, { headers: { authorization: `Bearer ${server.sandboxKey}` }, ...init });
  return { server, control, status };
}

/** A raw GET: the socket-level outcome (an error code, or the status) fetch would hide. */
function rawStatus(server: EmulatorServer): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const request = httpRequest(
      `${server.baseUrl}/status`,
      { headers: { authorization: `Bearer ${server.sandboxKey}` }, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end();
  });
}

describe('faults over a socket', () => {
  test('a drop resets the connection: no status line, ECONNRESET; the next request is answered', async () => {
    const { server, control, status } = await start();
    const fault = await control('POST', '/faults', { times: 2, fault: { drop: true } });
    expect(await rawStatus(server)).toEqual({ error: 'ECONNRESET' });
    await expect(status()).rejects.toThrow(new TypeError('fetch failed'));
    expect((await status()).status).toBe(200);
    const activity = await control('GET', '/activity?type=request');
    expect(
      activity.data.map((item: { status: number; fault?: string }) => [item.status, item.fault ?? null]),
    ).toEqual([
      [200, null],
      [0, fault.id],
      [0, fault.id],
    ]);
  });

  test('a hang holds the socket until the client gives up, then the emulator serves on', async () => {
    const { control, status } = await start();
    const fault = await control('POST', '/faults', { path: '/v1/status', fault: { hang: true } });
    const started = performance.now();
    await expect(status({ signal: AbortSignal.timeout(300) })).rejects.toThrow(/aborted/i);
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect((await status()).status).toBe(200);
    // The hang is recorded once the client went away: no answer (0), with its duration.
    const { data } = await control('GET', '/activity?type=request');
    expect(data.at(-1)).toMatchObject({ status: 0, fault: fault.id });
    expect(data.at(-1).duration_ms).toBeGreaterThanOrEqual(250);
  });

  test('closing the server ends a request it holds', async () => {
    const { server, control, status } = await start();
    await control('POST', '/faults', { fault: { hang: true } });
    const hung = status();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    await expect(hung).rejects.toThrow(TypeError);
  });
});
