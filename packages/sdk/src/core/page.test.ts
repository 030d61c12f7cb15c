import { describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../_test/test-server';
import { APIPromise } from './api-promise';
import { Page } from './page';

const server = useTestServer();

function connection(id: string) {
  return {
    object: 'connection',
    id,
    status: 'active',
    phone_number: '+33100000000',
    name: id,
    quality_rating: 'GREEN',
    waba_id: 'w',
    livemode: false,
    created_at: '2026-10-14T09:30:00Z',
  };
}

const pages: Record<
  string,
  { data: ReturnType<typeof connection>[]; has_more: boolean; next_cursor: string | null }
> = {
  first: { data: [connection('a'), connection('b')], has_more: true, next_cursor: 'cur_2' },
  cur_2: { data: [connection('c')], has_more: true, next_cursor: 'cur_3' },
  cur_3: { data: [connection('d')], has_more: false, next_cursor: null },
};

function threePages() {
  server.on('GET', '/connections', (request) => ({
    body: { object: 'list', ...pages[request.url.searchParams.get('cursor') ?? 'first'] },
  }));
}

describe('connections.list pagination', () => {
  it('returns the first page with the wire fields', async () => {
    threePages();
    const page = await server.client().connections.list({ limit: 2 });
    expect(page.object).toBe('list');
    expect(page.data.map((item) => item.id)).toEqual(['a', 'b']);
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toBe('cur_2');
    expect(page.hasNextPage()).toBe(true);
    expect(server.requests[0]?.url.searchParams.get('limit')).toBe('2');
    expect(server.requests[0]?.url.searchParams.has('cursor')).toBe(false);
  });

  it('iterates every item across pages, following next_cursor and keeping limit', async () => {
    threePages();
    const ids: string[] = [];
    for await (const item of server.client().connections.list({ limit: 2 })) ids.push(item.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    expect(server.requests.map((request) => request.url.search)).toEqual([
      '?limit=2',
      '?limit=2&cursor=cur_2',
      '?limit=2&cursor=cur_3',
    ]);
  });

  it('iterates from an awaited page too, and getNextPage ends with null', async () => {
    threePages();
    const first = await server.client().connections.list();
    const ids: string[] = [];
    for await (const item of first) ids.push(item.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    const second = await first.getNextPage();
    const third = await second?.getNextPage();
    expect(third?.data.map((item) => item.id)).toEqual(['d']);
    expect(await third?.getNextPage()).toBeNull();
  });

  it('exposes request id and rate limit of a page', async () => {
    threePages();
    const { data, requestId, rateLimit } = await server.client().connections.list().withResponse();
    expect(data.data).toHaveLength(2);
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(rateLimit).toEqual({ limit: 60, remaining: 59, reset: 42 });
  });
});

describe('Page.hasNextPage', () => {
  it.each([
    [true, 'cur_2', true],
    [true, null, false],
    [false, 'cur_2', false],
    [false, null, false],
  ] as const)(
    'has_more %s with next_cursor %j: %s, fetching only then',
    async (hasMore, cursor, expected) => {
      const fetchPage = vi.fn(() => new APIPromise<Page<number>>(Promise.reject(new Error('fetched'))));
      const page = new Page({ object: 'list', data: [1], has_more: hasMore, next_cursor: cursor }, fetchPage);
      expect(page.hasNextPage()).toBe(expected);
      if (!expected) expect(await page.getNextPage()).toBeNull();
      expect(fetchPage).not.toHaveBeenCalled();
    },
  );
});
