import { describe, expect, test } from 'vitest';
import { type ActivityDraft, ActivityFeed, KEPT_ACTIVITY } from '../core/activity-feed';
import { activityStream, StreamClientBehind } from './_activity-stream';

const decoder = new TextDecoder();

function control(path = '/_emulator/clock/advance'): ActivityDraft {
  return {
    kind: 'control',
    application_ids: [],
    method: 'POST',
    path,
    status: 200,
    request_id: 'req_0',
    duration_ms: 1,
  };
}

function publish(feed: ActivityFeed, count: number): void {
  for (let index = 0; index < count; index++) feed.publish(control());
}

/**
 * A stream read one chunk at a time. With a queue of 1 byte each frame fills it, so a client that
 * has read `n` items holds exactly one more: its next needed item is `n + 2`.
 */
async function client(feed: ActivityFeed, lastEventId?: number) {
  const reader = activityStream(feed, { lastEventId, queueBytes: 1 }).getReader();
  const preamble = await reader.read();
  expect(decoder.decode(preamble.value)).toBe('retry: 2000\n: parley emulator activity\n\n');
  return {
    reader,
    /** Reads `count` frames and returns their ids. */
    async ids(count: number): Promise<number[]> {
      const ids: number[] = [];
      for (let index = 0; index < count; index++) {
        const { value } = await reader.read();
        ids.push(Number(/^id: (\d+)\n/.exec(decoder.decode(value))![1]));
      }
      return ids;
    },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('activityStream: a client that falls behind', () => {
  test('is dropped at the trim that takes its next item away; a client whose next item is kept goes on', async () => {
    const feed = new ActivityFeed(() => 0);
    const atTheLimit = await client(feed);
    const onePast = await client(feed);
    publish(feed, KEPT_ACTIVITY + 99);
    // The trim at 1,100 items keeps 101 to 1,100: one client needs 101 (kept), the other 100 (gone).
    expect(await atTheLimit.ids(99)).toEqual(range(1, 99));
    expect(await onePast.ids(98)).toEqual(range(1, 98));
    expect(feed.listenerCount).toBe(2);

    publish(feed, 1);

    expect(feed.listenerCount).toBe(1);
    await expect(onePast.reader.read()).rejects.toBeInstanceOf(StreamClientBehind);
    expect(await atTheLimit.ids(1_001)).toEqual(range(100, 1_100));
  });

  test('a client that never reads is not dropped while its next item is kept, and gets every item once it reads', async () => {
    const feed = new ActivityFeed(() => 0);
    const idle = await client(feed);
    publish(feed, KEPT_ACTIVITY + 99);
    expect(feed.listenerCount).toBe(1);
    expect(await idle.ids(KEPT_ACTIVITY + 99)).toEqual(range(1, KEPT_ACTIVITY + 99));
  });

  test('a client that never reads is dropped once more than the kept items are published, and frees its queue', async () => {
    const feed = new ActivityFeed(() => 0);
    const idle = await client(feed);
    publish(feed, KEPT_ACTIVITY + 100);
    expect(feed.listenerCount).toBe(0);
    // Erroring the stream discards the frame it held: the first read already fails.
    await expect(idle.reader.read()).rejects.toThrow(
      'the activity stream client fell behind the items the emulator keeps',
    );
  });

  test('reconnecting with the last id it read, it gets the missed items that are still kept, then new ones', async () => {
    const feed = new ActivityFeed(() => 0);
    const first = await client(feed);
    publish(feed, 5);
    expect(await first.ids(3)).toEqual([1, 2, 3]);
    publish(feed, KEPT_ACTIVITY + 95);
    expect(feed.listenerCount).toBe(0);

    const resumed = await client(feed, 3);
    expect(await resumed.ids(KEPT_ACTIVITY)).toEqual(range(101, 1_100));
    publish(feed, 1);
    expect(await resumed.ids(1)).toEqual([1_101]);

    // Nothing missed that is kept: straight on from its last id.
    const close = await client(feed, 1_099);
    expect(await close.ids(2)).toEqual([1_100, 1_101]);
  });

  test('a reset empties the kept items: a client that had read everything goes on, one that had not is dropped', async () => {
    const feed = new ActivityFeed(() => 0);
    const current = activityStream(feed).getReader();
    await current.read();
    const behind = await client(feed);
    publish(feed, 3);
    feed.clear();
    feed.publish({ kind: 'reset', application_ids: [] });

    expect(feed.listenerCount).toBe(1);
    await expect(behind.reader.read()).rejects.toBeInstanceOf(StreamClientBehind);
    const frames: string[] = [];
    for (let index = 0; index < 4; index++) frames.push(decoder.decode((await current.read()).value));
    expect(frames.map((frame) => /^id: (\d+)\n/.exec(frame)![1])).toEqual(['1', '2', '3', '4']);
    expect(frames[3]).toContain('"kind":"reset"');
  });

  test('an id from before a restart (higher than any published) starts with the next new item', async () => {
    const feed = new ActivityFeed(() => 0);
    publish(feed, 2);
    const resumed = await client(feed, 50_000);
    publish(feed, 1);
    expect(await resumed.ids(1)).toEqual([3]);
  });
});
