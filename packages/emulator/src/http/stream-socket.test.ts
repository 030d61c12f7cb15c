import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { afterEach, describe, expect, test } from 'vitest';
import { ActivityFeed, KEPT_ACTIVITY } from '../core/activity-feed';
import type { EmulatorCore } from '../core/emulator-core';
import { registerStreamRoutes } from './stream-routes';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** `GET /_emulator/stream` of `feed` on a real socket, as the emulator's server serves it. */
async function serveFeed(feed: ActivityFeed): Promise<string> {
  const app = new H3({ silent: true });
  registerStreamRoutes(app, { activity: feed } as EmulatorCore);
  const server = createServer(toNodeHandler(app));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Collects the `id:` of every frame of an SSE byte stream without keeping its text. */
function idCollector() {
  const ids: number[] = [];
  let tail = '';
  return {
    ids,
    add(text: string) {
      const joined = tail + text;
      const lastFrameEnd = joined.lastIndexOf('\n\n');
      if (lastFrameEnd === -1) {
        tail = joined;
        return;
      }
      for (const match of joined.slice(0, lastFrameEnd).matchAll(/^id: (\d+)$/gm)) ids.push(Number(match[1]));
      tail = joined.slice(lastFrameEnd);
    },
  };
}

/** A raw socket that asks for the stream, reads the answer's first bytes, then stops reading. */
function idleClient(origin: string) {
  const { port } = new URL(origin);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  const received = idCollector();
  let raw = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let failure: Error | undefined;
  socket.on('error', (error) => {
    failure = error;
  });
  const subscribed = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      received.add(text);
      raw = (raw + text).slice(-16);
      if (text.includes('retry: 2000')) {
        socket.pause();
        resolve();
      }
    });
  });
  socket.write(`GET /_emulator/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return { socket, subscribed, closed, ids: received.ids, tail: () => raw, failure: () => failure };
}

/** A client that reads all the time, through fetch: the frames it got so far. */
async function readingClient(origin: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}/_emulator/stream`, { headers });
  const received = idCollector();
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  const waiters = new Set<() => void>();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) break;
      received.add(decoder.decode(value, { stream: true }));
      for (const wake of waiters) wake();
    }
    ended = true;
    for (const wake of waiters) wake();
  })();
  return {
    ids: received.ids,
    ended: () => ended,
    /** Resolves once the frame `id` arrived (or the stream ended). */
    reached: (id: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (ended || received.ids.at(-1)! >= id) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      }),
    close: () => reader.cancel(),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
// 16 KiB frames: the item count a trim removes (100) is more than a socket's buffers hold of them.
const LONG_PATH = `/_emulator/${'a'.repeat(16 * 1024)}`;
const yieldToSockets = () => new Promise((resolve) => setImmediate(resolve));

describe('GET /_emulator/stream over a socket', () => {
  test('a client that never reads is dropped once its next item is no longer kept: the server ends its socket and the feed lets it go; one that reads is not', async () => {
    const feed = new ActivityFeed(() => 0);
    const origin = await serveFeed(feed);
    const idle = idleClient(origin);
    await idle.subscribed;
    const reading = await readingClient(origin);
    expect(feed.listenerCount).toBe(2);

    let droppedAt: number | undefined;
    for (let published = 1; published <= 4_000 && droppedAt === undefined; published++) {
      feed.publish({
        kind: 'control',
        application_ids: [],
        method: 'POST',
        path: LONG_PATH,
        status: 200,
        request_id: 'req_0',
        duration_ms: 1,
      });
      if (published === KEPT_ACTIVITY + 99) expect(feed.listenerCount).toBe(2);
      if (feed.listenerCount === 1) droppedAt = published;
      if (published % 50 === 0) await yieldToSockets();
    }

    // Not before the first trim (1,100 items): until then every item it needs is kept.
    expect(droppedAt).toBeGreaterThanOrEqual(KEPT_ACTIVITY + 100);
    expect(droppedAt).toBeLessThanOrEqual(4_000);
    idle.socket.resume();
    await idle.closed;
    // Closed after what was sent, not reset: the server ended it once its buffers were read.
    expect(idle.failure()).toBeUndefined();
    // It got what the socket's buffers held, in order, and no end of the chunked body: it was cut.
    const lastRead = idle.ids.at(-1)!;
    expect(idle.ids).toEqual(range(1, lastRead));
    expect(lastRead).toBeLessThan(droppedAt! - KEPT_ACTIVITY);
    expect(idle.tail()).not.toContain('0\r\n\r\n');

    // The reading client was never dropped and missed nothing.
    await reading.reached(droppedAt!);
    expect(reading.ended()).toBe(false);
    expect(reading.ids).toEqual(range(1, droppedAt!));

    // Reconnecting with its last id, it gets the items still kept, in order, then new ones.
    const oldestKept = feed.newestFirst().at(-1)!.item.seq;
    expect(oldestKept).toBeGreaterThan(lastRead + 1);
    const resumed = await readingClient(origin, { 'last-event-id': String(lastRead) });
    feed.publish({ kind: 'reset', application_ids: [] });
    await resumed.reached(droppedAt! + 1);
    expect(resumed.ids).toEqual(range(oldestKept, droppedAt! + 1));
    expect(feed.listenerCount).toBe(2);
    await reading.close();
    await resumed.close();
  });
});
