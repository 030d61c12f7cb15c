import { describe, expect, it } from 'vitest';
import { useTestServer } from '../_test/test-server';

const server = useTestServer();
const connectionId = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

function template(index: number) {
  return {
    object: 'template',
    connection_id: connectionId,
    name: `template_${index}`,
    language: 'en',
    category: 'UTILITY',
    variable_count: 0,
    body: `Body ${index}`,
  };
}

const ALL = Array.from({ length: 150 }, (_, index) => template(index + 1));

/** Answers like the API: `limit` (default 20) items from the offset the cursor names. */
function pagedTemplates() {
  server.on('GET', `/connections/${connectionId}/templates`, (request) => {
    const limit = Number(request.url.searchParams.get('limit') ?? 20);
    const offset = Number(request.url.searchParams.get('cursor') ?? 0);
    const hasMore = offset + limit < ALL.length;
    return {
      body: {
        object: 'list',
        data: ALL.slice(offset, offset + limit),
        has_more: hasMore,
        next_cursor: hasMore ? String(offset + limit) : null,
      },
    };
  });
}

describe('connections.listTemplates pagination', () => {
  it('returns the first page with the list envelope and passes limit and cursor', async () => {
    pagedTemplates();
    const page = await server.client().connections.listTemplates(connectionId, { limit: 100, cursor: '20' });
    expect(page).toMatchObject({ object: 'list', has_more: true, next_cursor: '120' });
    expect(page.data.map((item) => item.name)).toEqual(ALL.slice(20, 120).map((item) => item.name));
    expect(server.requests[0]?.url.search).toBe('?limit=100&cursor=20');
  });

  it('iterates every one of 150 templates across pages', async () => {
    pagedTemplates();
    const names: string[] = [];
    for await (const item of server.client().connections.listTemplates(connectionId, { limit: 100 })) {
      names.push(item.name);
    }
    expect(names).toHaveLength(150);
    expect(names.at(-1)).toBe('template_150');
    expect(server.requests.map((request) => request.url.search)).toEqual([
      '?limit=100',
      '?limit=100&cursor=100',
    ]);
  });

  it('iterates an awaited page with the default limit, following next_cursor', async () => {
    pagedTemplates();
    const first = await server.client().connections.listTemplates(connectionId);
    expect(first.data).toHaveLength(20);
    let count = 0;
    for await (const _ of first) count += 1;
    expect(count).toBe(150);
    expect(server.requests).toHaveLength(8);
    expect(server.requests[0]?.url.search).toBe('');
  });
});
