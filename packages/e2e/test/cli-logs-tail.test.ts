// `parley logs tail` as a process against a listening emulator: lines as requests happen, filters,
// --json, Ctrl-C (exit 130), and a dropped connection resumed with Last-Event-ID.

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});
afterAll(() => server?.close());

/** A /v1 call with the sandbox key; the answer's status. */
async function call(method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(new URL(path, server.baseUrl), {
    method,
    headers: { authorization: `Bearer ${server.sandboxKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.body?.cancel();
  return response.status;
}

/** A TCP proxy to the emulator whose open connections a test can cut, as a flaky network would. */
async function startCuttingProxy(port: number) {
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

const lines = (text: string) => text.trim().split('\n').filter(Boolean);

describe('parley logs tail', () => {
  it('prints one line per request as it happens, filtered by --status and --path; Ctrl-C is exit 130', async () => {
    const tail = startCli(['logs', 'tail', '--status', '4xx', '--path', '/v1/messages'], {
      PARLEY_BASE_URL: server.baseUrl,
      XDG_CONFIG_HOME: '/nonexistent',
    });
    await tail.waitFor('Following the activity of');
    expect(await call('GET', '/v1/status')).toBe(200);
    expect(await call('POST', '/v1/messages', { to: 'nobody' })).toBe(400);
    expect(await call('GET', '/v1/connections/00000000-0000-4000-8000-000000000000/templates')).toBe(404);
    expect(await call('GET', '/v1/messages/00000000-0000-4000-8000-000000000000')).toBe(404);
    await tail.waitFor('GET /v1/messages/00000000-0000-4000-8000-000000000000 → 404');
    tail.child.kill('SIGINT');
    const { code, stdout, stderr } = await tail.exited;
    expect(code).toBe(130);
    expect(lines(stdout)).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:\d\d {2}request {3}POST \/v1\/messages → 400 {2}[\d.]+ ms {2}req_[0-9a-f]{32} {2}prl_sandbox_\w{4}…$/,
      ),
      expect.stringMatching(
        /^\d\d:\d\d:\d\d {2}request {3}GET \/v1\/messages\/00000000-0000-4000-8000-000000000000 → 404 {2}/,
      ),
    ]);
    expect(stderr).toBe(`Following the activity of ${new URL(server.baseUrl).origin} (Ctrl-C to stop)\n`);
  });

  it('--json prints each item as one JSON line, and a dropped stream resumes with nothing lost or repeated', async () => {
    const proxy = await startCuttingProxy(Number(new URL(server.baseUrl).port));
    const tail = startCli(['logs', 'tail', '--path', '/v1/status', '--json'], {
      PARLEY_BASE_URL: proxy.baseUrl,
      XDG_CONFIG_HOME: '/nonexistent',
    });
    try {
      await tail.waitFor('Following the activity of');
      await call('GET', '/v1/status');
      await tail.waitFor('"path":"/v1/status"');
      proxy.cut();
      await tail.waitFor('The activity stream dropped: reconnecting…');
      // Made while the CLI is away: the resume must bring them.
      await call('GET', '/v1/status');
      await call('GET', '/v1/status');
      await tail.waitFor('Reconnected: resuming after the last item received');
      await call('GET', '/v1/status');
      await tail.waitFor(/("path":"\/v1\/status"[^\n]*\n[\s\S]*){4}/);
      const items = lines(tail.stdout()).map((line) => JSON.parse(line));
      expect(items.map((item) => [item.kind, item.method, item.path, item.status])).toEqual(
        Array.from({ length: 4 }, () => ['request', 'GET', '/v1/status', 200]),
      );
      const seqs = items.map((item) => item.seq as number);
      expect(new Set(seqs).size).toBe(4);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(tail.stderr()).not.toContain('missed');
    } finally {
      tail.child.kill('SIGINT');
      expect((await tail.exited).code).toBe(130);
      await proxy.close();
    }
  });

  it('says the emulator is not running: exit 3', async () => {
    const tail = startCli(['logs', 'tail'], {
      PARLEY_BASE_URL: 'http://127.0.0.1:9/v1',
      XDG_CONFIG_HOME: '/nonexistent',
    });
    const { code, stderr } = await tail.exited;
    expect(code).toBe(3);
    expect(stderr).toContain('could not reach the emulator at http://127.0.0.1:9');
  });
});
