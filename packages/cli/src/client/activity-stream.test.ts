import { describe, expect, it } from 'vitest';
import { sseFrames } from './_sse-frames';
import { type ActivityItem, followActivity } from './activity-stream';

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
