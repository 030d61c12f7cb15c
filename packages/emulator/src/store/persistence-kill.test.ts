import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulatorBin as startBin, stopEmulatorBins } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';

afterEach(stopEmulatorBins);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function failingReceiver(): Promise<string> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const json = { 'content-type': 'application/json' };

describe('--data-dir survives SIGKILL (write-ahead journal + atomic snapshots)', () => {
  test('every 202-accepted message and every pending delivery is there after a kill mid-burst', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-kill-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startBin(['--data-dir', dataDir, '--clock', 'frozen', '--rate-limits', 'off']);
    const { base_url: base, control_url: control, sandbox_key: key } = first.ready;
    const app = (await (await fetch(`${control}/applications?limit=1`)).json()).data[0];
    const endpoint = await fetch(`${control}/applications/${app.id}/endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: await failingReceiver(), events: ['message.status_updated'] }),
    });
    expect(endpoint.status).toBe(201);

    const accepted: { id: string; failed: boolean }[] = [];
    let answered = 0;
    const burst = Array.from({ length: 300 }, async (_, index) => {
      const to = index % 3 === 0 ? '+33612340000' : `+336123${String(index).padStart(5, '1')}`;
      try {
        const response = await fetch(`${base}/messages`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${key}`, 'idempotency-key': `burst-${index}` },
          body: JSON.stringify({
            connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
            to,
            type: 'text',
            text: `n°${index}`,
          }),
        });
        if (response.status === 202) {
          const message = await response.json();
          accepted.push({ id: message.id, failed: message.status === 'failed' });
        }
      } catch {
        // Killed before answering: the send was never promised.
      }
      if (++answered === 120) first.child.kill('SIGKILL');
    });
    await Promise.all(burst);
    await first.exited;
    expect(accepted.length).toBeGreaterThanOrEqual(100);
    expect(accepted.length).toBeLessThan(300);

    const second = await startBin(['--data-dir', dataDir, '--clock', 'frozen']);
    const listed = await (await fetch(`${second.ready.control_url}/messages?limit=100`)).json();
    let ids = new Set<string>(listed.data.map((message: { id: string }) => message.id));
    let cursor = listed.next_cursor;
    while (cursor) {
      const page = await (
        await fetch(`${second.ready.control_url}/messages?limit=100&cursor=${cursor}`)
      ).json();
      ids = new Set([...ids, ...page.data.map((message: { id: string }) => message.id)]);
      cursor = page.next_cursor;
    }
    const missing = accepted.filter((message) => !ids.has(message.id));
    expect(missing).toEqual([]);

    const endpoints = await (await fetch(`${second.ready.control_url}/endpoints`)).json();
    expect(endpoints.data).toHaveLength(1);
    const deliveries = await (await fetch(`${second.ready.control_url}/deliveries?limit=100`)).json();
    const pending = deliveries.data.filter((delivery: { status: string }) => delivery.status === 'pending');
    const failedSends = accepted.filter((message) => message.failed).length;
    expect(failedSends).toBeGreaterThan(0);
    expect(pending.length).toBeGreaterThanOrEqual(Math.min(failedSends, 100));
  });
});
