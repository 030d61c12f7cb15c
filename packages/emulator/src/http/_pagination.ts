import type { ListEnvelope } from '@parley/sdk';
import { listPage, type PageQuery, parseLimit } from '../domain/list-page';

/** The `limit` and `cursor` query parameters of a list request. */
export function pageQueryOf(url: URL): PageQuery {
  return { limit: url.searchParams.get('limit'), cursor: url.searchParams.get('cursor') };
}

/** One page of `items` for this request's `limit` and `cursor` (see `listPage`). */
export function paginate<Item>(items: readonly Item[], url: URL): ListEnvelope<Item> {
  return listPage(items, pageQueryOf(url));
}

/** The `limit` query parameter: 1–100, default 20 (400 `validation_error` otherwise). */
export function limitOf(url: URL): number {
  return parseLimit(url.searchParams.get('limit'));
}
