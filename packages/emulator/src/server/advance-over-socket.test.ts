import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, textSend } from '../_testing/test-emulator';
import { type EmulatorServer, startEmulatorServer } from './start-server';

// The clock routes over a real socket: an advance answers only once the delivery attempts that
// fell due in it have run (DESIGN §3's schedule: the k-th failure waits min(6 h, 30 s × 2^k)).
const receivers: TestReceiver[] = [];
const servers: EmulatorServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('POST …/clock/advance over a socket', () => {
  test('a workspace advance of a day against 500, 500, 200: answered after the third attempt, delivered at T + 180 s', async () => {
    let count = 0;
    const receiver = await startReceiver(
      (response) => void response.writeHead(count++ < 2 ? 500 : 200).end(),
    );
    receivers.push(receiver);
    const server = await startEmulatorServer({ port: 0, clock: 'frozen', now: T0 });
    servers.push(server);
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const start = Date.parse('2026-12-31T23:59:00Z');
    const workspace = await post('/_emulator/workspaces', { name: 'w', clock: 'frozen', now: iso(start) });
    const app = await post('/_emulator/applications', {
      name: 'App',
      environment: 'sandbox',
      workspace_id: workspace.body.id,
    });
    const key = await post(`/_emulator/applications/${app.body.id}/keys`, {});
    await post(`/_emulator/applications/${app.body.id}/endpoints`, {
      url: receiver.url,
      events: ['message.status_updated'],
    });
    // A recipient ending in 0000 fails at once: its `failed` status event is the one delivery.
    const sent = await post('/v1/messages', textSend({ to: '+33612340000' }), {
      authorization: `Bearer ${key.body.key}`,
      'idempotency-key': 'socket-1',
    });
    expect(sent.status).toBe(202);

    const answer = await post(`/_emulator/workspaces/${workspace.body.id}/clock/advance`, { ms: DAY });
    const requestsWhenAnswered = receiver.requests.length;

    expect(answer).toEqual({ status: 200, body: { workspace_id: workspace.body.id, now: iso(start + DAY) } });
    expect(requestsWhenAnswered).toBe(3);
    const listed = await fetch(`${server.url}/_emulator/deliveries?application_id=${app.body.id}`);
    const [delivery] = (await listed.json()).data;
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((attempt: { at: string }) => attempt.at)).toEqual([
      iso(start),
      iso(start + 60_000),
      iso(start + 180_000),
    ]);
  });
});
