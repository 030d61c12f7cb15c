import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { type EmulatorProcess, startEmulatorProcess } from './_emulator-process';
import { recordFigure } from './_figures';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

const TEXT = 'x'.repeat(4_096);
/**
 * Generous: the 8,000 stored messages alone take about 75 MB. Before the fix the 5 idle clients'
 * queues added 39 MB each (RSS 78 → 347 MB); the issue saw 1,154 MB.
 */
const RSS_GROWTH_MB = 200;

const processes: EmulatorProcess[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const running of processes) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
});

const rssMegabytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A stream client on a raw socket: what it has read, and whether the server has ended it. */
interface StreamClient {
  socket: Socket;
  bytes: () => number;
  /** The highest `id:` it has read. */
  lastId: () => number;
  /** Reads everything from now on, at once, and says whether the server ends the socket within 20 s. */
  drainedToEnd: () => Promise<boolean>;
}

/**
 * Opens `GET /_emulator/stream` on a raw socket and resolves once the answer's head has arrived
 * (the server has subscribed it). `reading` says what the client does next: `idle` never reads
 * again; `slow` reads one chunk (at most 64 KiB) every second, a client on a bad link.
 */
function openClient(base: string, reading: 'idle' | 'slow'): Promise<StreamClient> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    let mode: 'idle' | 'slow' | 'draining' = reading;
    let bytes = 0;
    let lastId = 0;
    let tail = '';
    const ended = new Promise<void>((resolveEnd) => socket.once('close', () => resolveEnd()));
    const drainedToEnd = async () => {
      mode = 'draining';
      socket.resume();
      const timeout = new Promise<'open'>((resolveOpen) =>
        setTimeout(() => resolveOpen('open'), 20_000).unref(),
      );
      return (await Promise.race([ended.then(() => 'ended' as const), timeout])) === 'ended';
    };
    // Before the answer an error fails the client; after it, a reset is one more way to be cut off.
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      // Ids are read from a rolling tail so a frame split over two chunks is still seen.
      const text = tail + chunk.toString('latin1');
      for (const match of text.matchAll(/\nid: (\d+)\n/g)) lastId = Math.max(lastId, Number(match[1]));
      tail = text.slice(-64);
      if (bytes === chunk.length) {
        resolve({ socket, bytes: () => bytes, lastId: () => lastId, drainedToEnd });
        if (mode === 'idle') socket.pause();
      }
      if (mode === 'slow') {
        socket.pause();
        setTimeout(() => socket.resume(), 1_000).unref();
      }
    });
    socket.write(
      `GET /_emulator/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
    );
  });
}

/** Sends `count` 4 KiB texts, 50 at a time; calls `sample` after each batch. */
async function sendTexts(running: EmulatorProcess, count: number, sample: () => void): Promise<void> {
  for (let batch = 0; batch < count; batch += 50) {
    const statuses = await Promise.all(
      Array.from({ length: Math.min(50, count - batch) }, async (_, index) => {
        const response = await fetch(`${running.base}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${running.key}`,
            'content-type': 'application/json',
            'idempotency-key': `stream-${batch + index}`,
          },
          body: JSON.stringify({
            type: 'text',
            connection_id: ACTIVE_CONNECTION,
            to: '+33612345678',
            text: TEXT,
          }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.every((status) => status === 202)).toBe(true);
    sample();
  }
}

describe('activity stream clients', () => {
  test('5 idle clients and 8,000 sends of 4 KiB: the clients are dropped, the emulator stays small', async () => {
    const running = await startEmulatorProcess(['--clock', 'frozen', '--rate-limits', 'off']);
    processes.push(running);
    const pid = running.child.pid!;
    const rssAtStart = rssMegabytes(pid);
    const idle = await Promise.all(Array.from({ length: 5 }, () => openClient(running.base, 'idle')));
    let rssPeak = rssAtStart;
    const started = performance.now();
    await sendTexts(running, 8_000, () => {
      rssPeak = Math.max(rssPeak, rssMegabytes(pid));
    });
    const seconds = (performance.now() - started) / 1000;
    const ended = await Promise.all(idle.map((client) => client.drainedToEnd()));
    const rssAfter = rssMegabytes(pid);

    expect(ended).toEqual([true, true, true, true, true]);
    expect(rssPeak - rssAtStart).toBeLessThan(RSS_GROWTH_MB);
    // What each read before it was dropped: far less than the ~8,000 frames of 4 KiB it was owed.
    const received = idle.map((client) => client.bytes());
    for (const bytes of received) expect(bytes).toBeLessThan(16 * 1024 * 1024);
    expect((await fetch(`${running.control}/health`)).status).toBe(200);
    // A drop is not an error of the emulator's: nothing is logged for it.
    expect(running.stderr()).toBe('');

    recordFigure({
      test: 'stream: idle clients',
      load: '5 clients open GET /_emulator/stream and never read, then 8,000 sends of 4 KiB text',
      proved:
        'a client that does not read is dropped (its socket ended) once it needs an item the feed no longer keeps; the emulator does not grow with what it owes them',
      figures: `emulator RSS ${Math.round(rssAtStart)} → peak ${Math.round(rssPeak)} MB (${Math.round(rssAfter)} after); 5/5 dropped after reading ${mib(Math.min(...received))}–${mib(Math.max(...received))} each; sends ${seconds.toFixed(1)} s`,
    });
  });

  test('50 clients, half idle and half slow, through 4,000 sends: memory stays bounded', async () => {
    const running = await startEmulatorProcess(['--clock', 'frozen', '--rate-limits', 'off']);
    processes.push(running);
    const pid = running.child.pid!;
    const rssAtStart = rssMegabytes(pid);
    const clients = await Promise.all(
      Array.from({ length: 50 }, (_, index) => openClient(running.base, index % 2 === 0 ? 'idle' : 'slow')),
    );
    let rssPeak = rssAtStart;
    await sendTexts(running, 4_000, () => {
      rssPeak = Math.max(rssPeak, rssMegabytes(pid));
    });
    const ended = await Promise.all(clients.map((client) => client.drainedToEnd()));

    expect(ended.filter(Boolean)).toHaveLength(50);
    expect(rssPeak - rssAtStart).toBeLessThan(RSS_GROWTH_MB);
    const slowRead = clients.filter((_, index) => index % 2 === 1).map((client) => client.lastId());

    recordFigure({
      test: 'stream: 50 idle and slow clients',
      load: '25 clients that never read and 25 that read one chunk (≤ 64 KiB) a second, then 4,000 sends of 4 KiB text',
      proved:
        'every client that falls behind the kept history is dropped; memory does not grow with the clients',
      figures: `emulator RSS ${Math.round(rssAtStart)} → peak ${Math.round(rssPeak)} MB; 50/50 dropped; the slow ones had read up to items ${Math.min(...slowRead)}–${Math.max(...slowRead)} of ${(await lastSeq(running)).toLocaleString('en')}`,
    });
  });
});

/** The seq of the newest activity item. */
async function lastSeq(running: EmulatorProcess): Promise<number> {
  const page = await (await fetch(`${running.control}/activity?limit=1`)).json();
  return page.data[0].seq;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
