import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_BYTES, sseFrames } from './_sse-frames';
import { type ActivityItem, followActivity, type SkippedEvent } from './activity-stream';

const encoder = new TextEncoder();

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield encoder.encode(part);
}

async function collect<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('sseFrames', () => {
  it('parses ids, data, retry and comments, with any line ending, split anywhere', async () => {
    const frames = await collect(
      sseFrames(
        chunks(
          'retry: 2000\n: a comment\n\nid: 1\nda',
          'ta: {"a":1}\r\n\r',
          '\nid: 2\rdata: x\rdata: y\r\r: keep-alive\n\n',
        ),
      ),
    );
    expect(frames).toEqual([{ retry: 2000 }, { id: '1', data: '{"a":1}' }, { id: '2', data: 'x\ny' }]);
  });

  it('drops an event the stream cut before its blank line', async () => {
    expect(await collect(sseFrames(chunks('id: 1\ndata: 1\n\nid: 2\ndata: 2\n')))).toEqual([
      { id: '1', data: '1' },
    ]);
  });

  it('keeps an event of exactly 1 MiB of field lines, and skips one a byte over, once, going on after it', async () => {
    // `data:` (5 bytes) + the value fill the bound exactly; line ends are not counted.
    const atLimit = 'x'.repeat(MAX_EVENT_BYTES - 5);
    const frames = await collect(
      sseFrames(
        chunks(
          `data:${atLimit}\r\n\r\n`,
          `id: 7\ndata:${atLimit}x`,
          'more of it\ndata: and a line after\n\n',
          'id: 8\ndata: {"a":1}\n\n',
        ),
      ),
    );
    expect(
      frames.map((frame) => ({ ...frame, data: frame.data?.slice(0, 3), size: frame.data?.length })),
    ).toEqual([
      { data: 'xxx', size: MAX_EVENT_BYTES - 5 },
      // Told the moment the bound is crossed; the event's id (read before) still counts.
      { oversized: true, data: undefined, size: undefined },
      { id: '7', data: undefined, size: undefined },
      { id: '8', data: '{"a', size: 7 },
    ]);
  });

  it('counts an event over all its lines: many short data lines past 1 MiB are skipped too', async () => {
    const line = `data: ${'y'.repeat(1018)}\n`; // 1,024 bytes with its line end, 1,023 counted
    const perChunk = line.repeat(64);
    const parts = Array.from({ length: 20 }, () => perChunk);
    const frames = await collect(sseFrames(chunks(...parts, '\nid: 2\ndata: ok\n\n')));
    expect(frames).toEqual([{ oversized: true }, { id: '2', data: 'ok' }]);
  });

  it('does not count comments: a keep-alive stream without blank lines never makes an event oversized', async () => {
    const comments = `: ${'z'.repeat(1022)}\n`.repeat(2048); // 2 MiB of comment lines
    expect(await collect(sseFrames(chunks(comments, 'data: 1\n\n')))).toEqual([{ data: '1' }]);
  });

  it('skips one endless line without keeping it: told once, then nothing until its end', async () => {
    let fed = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      const chunk = encoder.encode('q'.repeat(64 * 1024));
      yield encoder.encode('data: ');
      for (; fed < 64 * 1024 * 1024; fed += chunk.length) yield chunk;
      yield encoder.encode('\n\ndata: after\n\n');
    }
    const frames = await collect(sseFrames(endless()));
    expect(fed).toBe(64 * 1024 * 1024);
    expect(frames).toEqual([{ oversized: true }, { data: 'after' }]);
  });

  it('reads lines split anywhere across chunks, byte by byte, a CR at a chunk end and a BOM at the start', async () => {
    const text = '\uFEFFid: é1\r\ndata: ünï\r\n\r\n:c\rdata: 2\r\r';
    const bytes = encoder.encode(text);
    const oneByOne = await collect(
      sseFrames(
        (async function* () {
          for (const byte of bytes) yield Uint8Array.of(byte);
        })(),
      ),
    );
    expect(oneByOne).toEqual([{ id: 'é1', data: 'ünï' }, { data: '2' }]);
  });
});

function item(seq: number): ActivityItem {
  return {
    seq,
    at: '2026-10-14T09:30:15.000Z',
    kind: 'clock',
    application_ids: [],
    now: 'x',
    mode: 'frozen',
  };
}

function stream(text: string, { open = false } = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      if (!open) controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('followActivity', () => {
  it('reconnects after a drop with Last-Event-ID and the retry the server asked for', async () => {
    const controller = new AbortController();
    const asked: (string | null)[] = [];
    const states: string[] = [];
    const answers = [
      () => stream(`retry: 5\n\nid: 1\ndata: ${JSON.stringify(item(1))}\n\n`),
      () => stream(`id: 2\ndata: ${JSON.stringify(item(2))}\n\n`, { open: true }),
    ];
    const seen: number[] = [];
    for await (const each of followActivity({
      origin: 'http://127.0.0.1:4010',
      fetch: async (request) => {
        asked.push(request.headers.get('last-event-id'));
        return answers[asked.length - 1]!();
      },
      signal: controller.signal,
      onConnection: (state) => states.push(state),
    })) {
      seen.push(each.seq);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual([1, 2]);
    expect(asked).toEqual([null, '1']);
    expect(states).toEqual(['connected', 'lost', 'resumed']);
  });

  it('skips an oversized event and data that is no item, telling each, and follows on without reconnecting', async () => {
    const controller = new AbortController();
    const skipped: SkippedEvent[] = [];
    const states: string[] = [];
    const body = [
      `id: 1\ndata: ${JSON.stringify(item(1))}\n\n`,
      `id: 2\ndata: ${'x'.repeat(MAX_EVENT_BYTES)}\n\n`,
      'id: 3\ndata: not json\n\n',
      'id: 4\ndata: [1]\n\nid: 5\ndata: {"seq":"5","kind":"clock"}\n\nid: 6\ndata: {"seq":6}\n\n',
      `id: 7\ndata: ${JSON.stringify(item(7))}\n\n`,
    ].join('');
    const seen: number[] = [];
    for await (const each of followActivity({
      origin: 'http://127.0.0.1:4010',
      fetch: async () => stream(body, { open: true }),
      signal: controller.signal,
      onConnection: (state) => states.push(state),
      onSkipped: (why) => skipped.push(why),
    })) {
      seen.push(each.seq);
      if (each.seq === 7) controller.abort();
    }
    expect(seen).toEqual([1, 7]);
    expect(skipped).toEqual(['oversized', 'not_an_item', 'not_an_item', 'not_an_item', 'not_an_item']);
    expect(states).toEqual(['connected']);
  });

  it('still ends on abort after a garbage collection during the read (the request is held)', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`id: 1\ndata: ${JSON.stringify(item(1))}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const each of followActivity({
      origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      fetch: (request) => fetch(request),
      signal: controller.signal,
    })) {
      seen.push(each.seq);
      // Collected while the next chunk is awaited, before Ctrl-C.
      setImmediate(() => {
        collectGarbage();
        collectGarbage();
        controller.abort();
      });
    }
    expect(seen).toEqual([1]);
    server.closeAllConnections();
    server.close();
  });

  it('is exit 3 when the emulator cannot be reached, or has no stream, at the start', async () => {
    const signal = new AbortController().signal;
    await expect(
      collect(
        followActivity({
          origin: 'http://127.0.0.1:9',
          fetch: async () => {
            throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
          },
          signal,
        }),
      ),
    ).rejects.toMatchObject({
      code: 3,
      message:
        'could not reach the emulator at http://127.0.0.1:9: ECONNREFUSED. Start it with `parley emulator start`, or pass its --base-url',
    });
    await expect(
      collect(
        followActivity({
          origin: 'http://127.0.0.1:9',
          fetch: async () => new Response('no', { status: 404 }),
          signal,
        }),
      ),
    ).rejects.toMatchObject({ code: 3, message: expect.stringContaining('has no emulator activity stream') });
  });
});
