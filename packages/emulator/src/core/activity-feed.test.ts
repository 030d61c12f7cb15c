import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type ActivityDraft, ActivityFeed, KEPT_ACTIVITY } from './activity-feed';

const KEY = 'prl_live_AbCd0123456789abcdefghijABCDEFGHIJ';
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJkl';
const BASE62 = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];

function messageDraft(text: string, metadata: Record<string, string> = {}): ActivityDraft {
  const message = { id: 'msg_1', status: 'queued', text, ...metadata } as never;
  return { kind: 'message', application_ids: ['app_1'], status: 'queued', message };
}

describe('ActivityFeed', () => {
  test('masks secrets as it publishes: the kept item never holds one, and the record it came from is untouched', () => {
    const feed = new ActivityFeed(() => 0);
    const record = { id: 'msg_1', status: 'queued', text: `pasted:\n${KEY}`, [`_${SECRET}`]: 'x' };
    feed.publish({ kind: 'message', application_ids: [], status: 'queued', message: record as never });
    const [entry] = feed.newestFirst();
    expect(entry!.item).toMatchObject({
      seq: 1,
      message: { text: 'pasted:\nprl_live_AbCd…', '_whsec_…': 'x' },
    });
    expect(record.text).toBe(`pasted:\n${KEY}`);
    expect(JSON.stringify(entry!.item)).not.toContain(KEY.slice(13));
  });

  test('fuzzed: a key or secret after and before any text is in no kept item, nor in its JSON', () => {
    const feed = new ActivityFeed(() => 0);
    const anyCharacter = fc.oneof(
      fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
      fc.constantFrom('\n', '\t', '_', 'a', '\\', '"'),
    );
    const around = fc.string({ unit: anyCharacter, maxLength: 12 });
    const secret = fc.oneof(
      fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }).map((body) => ({
        value: `prl_sandbox_${body}`,
        hidden: body.slice(4),
      })),
      fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }).map((body) => ({
        value: `whsec_${body}`,
        hidden: body,
      })),
    );
    fc.assert(
      fc.property(around, secret, around, fc.boolean(), (before, { value, hidden }, after, asName) => {
        const text = `${before}${value}${after}`;
        feed.publish(asName ? messageDraft('hi', { [text]: 'v' }) : messageDraft(text));
        const [entry] = feed.newestFirst();
        expect(JSON.stringify(entry!.item)).not.toContain(hidden);
        expect(feed.json(entry!)).not.toContain(hidden);
      }),
      { numRuns: 1_000 },
    );
  });

  test('publishing reads none of an item: it is masked and dated when first read, once, at the time it was published', () => {
    let now = Date.UTC(2026, 9, 14, 9, 30);
    const feed = new ActivityFeed(() => now);
    const reads: string[] = [];
    const message = {
      id: 'msg_1',
      get text() {
        reads.push('text');
        return `pasted ${KEY}`;
      },
    };
    feed.publish({
      kind: 'message',
      application_ids: ['app_1'],
      status: 'queued',
      message: message as never,
    });
    now += 60_000;
    expect(reads).toEqual([]);
    const [entry] = feed.newestFirst();
    expect(entry!.seq).toBe(1);
    expect(reads).toEqual([]);
    expect(entry!.item).toEqual({
      kind: 'message',
      application_ids: ['app_1'],
      status: 'queued',
      message: { id: 'msg_1', text: 'pasted prl_live_AbCd…' },
      seq: 1,
      at: '2026-10-14T09:30:00.000Z',
    });
    expect(entry!.item).toBe(entry!.item);
    expect(feed.json(entry!)).toBe(JSON.stringify(entry!.item));
    expect(reads).toEqual(['text']);
  });

  test('keeps the last 1,000 items, trimmed in batches of 100; entryAfter finds the next kept one', () => {
    const feed = new ActivityFeed(() => 0);
    const publish = (count: number) => {
      for (let index = 0; index < count; index++) feed.publish({ kind: 'reset', application_ids: [] });
    };
    publish(KEPT_ACTIVITY + 99);
    expect(feed.newestFirst()).toHaveLength(KEPT_ACTIVITY);
    expect(feed.entryAfter(0)?.item.seq).toBe(1);
    publish(1);
    expect(feed.lastSeq).toBe(1_100);
    expect(feed.entryAfter(0)?.item.seq).toBe(101);
    expect(feed.entryAfter(100)?.item.seq).toBe(101);
    expect(feed.entryAfter(500)?.item.seq).toBe(501);
    expect(feed.entryAfter(1_100)).toBeUndefined();
    feed.clear();
    expect(feed.entryAfter(0)).toBeUndefined();
    publish(1);
    expect(feed.entryAfter(0)?.item.seq).toBe(1_101);
  });
});
