import type { ListEnvelope } from '@parley/sdk';
import type { ControlPageQuery } from '../core/control-types';

/** Pages a control list can run to before {@link listAll} gives up: 10,000 pages of 100 items. */
const MAX_PAGES = 10_000;

/**
 * Every item of a control list, read page after page, 100 at a time, in the list's order. `list`
 * is one list call given the page to read; works the same in process and over HTTP.
 *
 * @example
 * const deliveries = await listAll((page) => control.listDeliveries({ endpointId, ...page }));
 */
export async function listAll<Item>(
  list: (page: ControlPageQuery) => Promise<ListEnvelope<Item>>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page: ListEnvelope<Item> = await list(cursor === null ? { limit: 100 } : { limit: 100, cursor });
    items.push(...page.data);
    if (!page.has_more || page.next_cursor === null) return items;
    cursor = page.next_cursor;
  }
  throw new Error(`listAll stopped after ${MAX_PAGES} pages: the list did not end`);
}
