import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { type EmulatorServer, startEmulatorServer } from './start-server';

const servers: EmulatorServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start() {
  const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  servers.push(server);
  return server;
}

/** A raw request, so the Host header can be anything (fetch forbids setting it). */
function rawGet(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('startEmulatorServer over a real socket', () => {
  test('binds 127.0.0.1 and serves /v1, the control API and the console', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl).toBe(`${server.url}/v1`);
    const status = await fetch(`${server.baseUrl}/status`, {
      headers: { authorization: `Bearer ${server.sandboxKey}` },
    });
    expect(status.status).toBe(200);
    expect(status.headers.get('x-request-id')).toMatch(/^req_/);
    expect(status.headers.get('ratelimit-remaining')).toBe('59');
    const sent = await fetch(`${server.baseUrl}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'socket-1',
      },
      body: JSON.stringify({
        connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
        to: '+33612345678',
        type: 'template',
        template: { name: 'hello_world', language: 'en', variables: [] },
      }),
    });
    expect(sent.status).toBe(202);
    const health = await fetch(`${server.controlUrl}/health`);
    expect(await health.json()).toMatchObject({ ok: true });
    const console = await fetch(server.consoleUrl);
    expect(console.headers.get('content-type')).toMatch(/^text\/html/);
  });

  test('DNS-rebinding guard: a non-loopback Host gets 403 on every path; loopback names pass', async () => {
    const server = await start();
    for (const path of ['/_emulator/health', '/v1/status', '/']) {
      const refused = await rawGet(`${server.url}${path}`, 'attacker.example:4010');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.code).toBe('host_not_allowed');
    }
    for (const host of ['localhost:4010', '127.0.0.1', '[::1]:4010', 'LOCALHOST']) {
      expect((await rawGet(`${server.url}/_emulator/health`, host)).status).toBe(200);
    }
    expect((await rawGet(`${server.url}/_emulator/health`, '127.0.0.1.attacker.example')).status).toBe(403);
  });

  test('a taken port is an error, not a silent move to another port', async () => {
    const server = await start();
    const port = Number(new URL(server.url).port);
    await expect(startEmulatorServer({ port })).rejects.toThrow();
  });
});

describe('port choice', () => {
  test('port 0 picks a free random port each time', async () => {
    const first = await start();
    const second = await start();
    expect(first.url).not.toBe(second.url);
    expect(new URL(first.url).port).not.toBe('3000');
  });

  test('a port browsers block is refused instead of silently replaced', async () => {
    await expect(startEmulatorServer({ port: 6000 })).rejects.toThrow(/port 6000 cannot be used/);
  });
});
