import type { ListEnvelope } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';

/**
 * One page of `items` in the list envelope (DESIGN §2): `limit` 1–100 (default 20); `cursor` is
 * opaque to callers (the offset of the next item, base64url).
 */
export function paginate<Item>(items: readonly Item[], url: URL): ListEnvelope<Item> {
  const limit = limitOf(url);
  const cursor = url.searchParams.get('cursor');
  const offset = cursor === null ? 0 : decodeCursor(cursor, 'o');
  const data = items.slice(offset, offset + limit);
  const hasMore = offset + limit < items.length;
  return {
    object: 'list',
    data,
    has_more: hasMore,
    next_cursor: hasMore ? Buffer.from(`o:${offset + limit}`).toString('base64url') : null,
  };
}

/**
 * One page, newest first, of records kept in arrival order (`order` holds their ids, oldest
 * first). It walks back from the end and stops once the page and one more match are found, so a
 * page costs what it shows, not the whole history. `pick` returns the record of an id, or
 * `undefined` to skip it (a filter). The cursor is the position of the next match: stable while
 * new records arrive.
 */
export function paginateNewestFirst<Item>(
  order: readonly string[],
  pick: (id: string) => Item | undefined,
  url: URL,
): ListEnvelope<Item> {
  const limit = limitOf(url);
  const cursor = url.searchParams.get('cursor');
  const start = cursor === null ? order.length - 1 : decodeCursor(cursor, 'p');
  if (start >= order.length) throw invalidCursor();
  const data: Item[] = [];
  for (let position = start; position >= 0; position--) {
    const item = pick(order[position]!);
    if (item === undefined) continue;
    if (data.length === limit) {
      return {
        object: 'list',
        data,
        has_more: true,
        next_cursor: Buffer.from(`p:${position}`).toString('base64url'),
      };
    }
    data.push(item);
  }
  return { object: 'list', data, has_more: false, next_cursor: null };
}

/** The `limit` query parameter: 1–100, default 20 (400 `validation_error` otherwise). */
export function limitOf(url: URL): number {
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !/^\d+$/.test(limitText ?? '20')) {
    throw new DomainError('validation_error', 'limit must be an integer from 1 to 100.', {
      field: 'limit',
      reason: 'invalid_value',
    });
  }
  return limit;
}

const invalidCursor = () =>
  new DomainError('validation_error', 'cursor is not one this API returned.', {
    field: 'cursor',
    reason: 'invalid_value',
  });

function decodeCursor(cursor: string, kind: 'o' | 'p'): number {
  const match = /^([op]):(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || match[1] !== kind) throw invalidCursor();
  return Number(match[2]);
}
