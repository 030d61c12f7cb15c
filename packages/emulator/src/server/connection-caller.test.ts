import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_APPLICATION_ID } from '../core/defaults';
import { type EmulatorServer, startEmulatorServer } from './start-server';

// A keep-alive connection keeps the caller its last Authorization header named (http/
// _connection-caller.ts, issue 23). Every request here goes over ONE socket, so each answer shows
// the kept caller is dropped the moment the key, or the state it came from, changes.
const servers: EmulatorServer[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  for (const server of servers.splice(0)) await server.close();
});

async function start() {
  const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  servers.push(server);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  const sockets = new Set<Socket>();
  /** GET /v1/status over the one socket; the answer's status and error code. */
  const status = (authorization: string | undefined) =>
    new Promise<{ status: number; code: string | undefined }>((resolve, reject) => {
      const headers = authorization === undefined ? {} : { authorization };
      const request = httpRequest(`${server.baseUrl}/status`, { agent, headers }, (response) => {
        sockets.add(response.socket);
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, code: JSON.parse(body).error?.code }),
        );
      });
      request.on('error', reject);
      request.end();
    });
  return { server, status, sockets };
}

describe('the caller kept per keep-alive connection', () => {
  test('a revoked key, another key, no key: each answered as on a new connection', async () => {
    const { server, status, sockets } = await start();
    const { emulator } = server;
    const created = await emulator.control.createKey(DEFAULT_APPLICATION_ID, {});
    const bearer = `Bearer ${created.key}`;
    expect(await status(bearer)).toEqual({ status: 200, code: undefined });
    expect(await status(bearer)).toEqual({ status: 200, code: undefined });
    await emulator.control.revokeKey(created.id);
    expect(await status(bearer)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await status(`Bearer ${server.sandboxKey}`)).toEqual({ status: 200, code: undefined });
    expect(await status(undefined)).toEqual({ status: 401, code: 'missing_api_key' });
    expect(await status(`Bearer ${server.sandboxKey}`)).toEqual({ status: 200, code: undefined });
    expect(await status(`Bearer ${server.sandboxKey}x`)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await status(bearer)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(sockets.size).toBe(1);
  });

  test('a reset: the sandbox key, revoked then seeded again, is the new state’s', async () => {
    const { server, status, sockets } = await start();
    const { emulator } = server;
    const bearer = `Bearer ${server.sandboxKey}`;
    expect(await status(bearer)).toEqual({ status: 200, code: undefined });
    const [key] = (await emulator.control.usage(DEFAULT_APPLICATION_ID)).keys;
    await emulator.control.revokeKey(key!.key_id);
    expect(await status(bearer)).toEqual({ status: 401, code: 'invalid_api_key' });
    await emulator.control.reset();
    expect(await status(bearer)).toEqual({ status: 200, code: undefined });
    expect(sockets.size).toBe(1);
  });
});
