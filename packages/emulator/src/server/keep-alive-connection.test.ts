import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createAppWithKey } from '../_testing/test-emulator';
import { type EmulatorServer, startEmulatorServer } from './start-server';

// The host guard and admission remember what a keep-alive connection sent last (its Host, its
// Authorization header and that key's hash), so a client repeating them is not parsed and hashed
// again (issue 23). What one call of a connection passed must never let a later call of the same
// connection through: each call below goes over one socket, and the test checks that it did.

const servers: EmulatorServer[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  for (const server of servers.splice(0)) await server.close();
});

interface Answer {
  status: number;
  code: string | undefined;
  socket: Socket;
}

/** One keep-alive connection to a fresh emulator: `call` sends over it, with any Host and key. */
async function oneConnection() {
  const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  servers.push(server);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  const call = (path: string, headers: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest(`${server.url}${path}`, { agent, headers }, (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            code: body ? JSON.parse(body).error?.code : undefined,
            socket: response.socket,
          }),
        );
      });
      request.on('error', reject);
      request.end();
    });
  return { server, call };
}

describe('one keep-alive connection', () => {
  test('a loopback Host passed once does not let another Host through', async () => {
    const { server, call } = await oneConnection();
    const key = { authorization: `Bearer ${server.sandboxKey}` };
    const port = new URL(server.url).port;
    const answers = [
      await call('/v1/status', { ...key, host: `127.0.0.1:${port}` }),
      await call('/v1/status', { ...key, host: 'attacker.example' }),
      await call('/v1/status', { ...key, host: `127.0.0.1.attacker.example:${port}` }),
      await call('/v1/status', { ...key, host: `127.0.0.1:${port}` }),
      await call('/v1/status', { ...key, host: `LOCALHOST:${port}` }),
    ];
    expect(answers.map((answer) => [answer.status, answer.code])).toEqual([
      [200, undefined],
      [403, 'host_not_allowed'],
      [403, 'host_not_allowed'],
      [200, undefined],
      [200, undefined],
    ]);
    expect(new Set(answers.map((answer) => answer.socket)).size).toBe(1);
  });

  test('each call is authenticated by its own header: a changed, missing or revoked key is refused', async () => {
    const { server, call } = await oneConnection();
    const { app, key } = await createAppWithKey(server.emulator, 'sandbox');
    const status = (authorization?: string) =>
      call('/v1/status', authorization === undefined ? {} : { authorization });
    const answers = [
      await status(`Bearer ${key}`),
      await status(`Bearer ${key}x`),
      await status(),
      await status(`Bearer ${server.sandboxKey}`),
      await status(`Bearer ${key}`),
    ];
    const keyId = (await server.emulator.control.usage(app.id)).keys[0]!.key_id;
    await server.emulator.control.revokeKey(keyId);
    // The same header as the call before the revocation, on the same connection: refused now.
    answers.push(await status(`Bearer ${key}`));
    expect(answers.map((answer) => [answer.status, answer.code])).toEqual([
      [200, undefined],
      [401, 'invalid_api_key'],
      [401, 'missing_api_key'],
      [200, undefined],
      [200, undefined],
      [401, 'invalid_api_key'],
    ]);
    expect(new Set(answers.map((answer) => answer.socket)).size).toBe(1);
  });
});
