import type { ListEnvelope } from '@parley/sdk';
import { DomainError } from './domain-error';

/** The paging part of a list request: `limit` 1–100 (default 20) and an opaque `cursor`. */
export interface PageQuery {
  /** A number, or the query parameter's text (checked the same way); absent or null: 20. */
  limit?: number | string | null | undefined;
  /** A `next_cursor` this API returned; absent or null: the first page. */
  cursor?: string | null | undefined;
}

/**
 * One page of `items` in the list envelope (DESIGN §2). The cursor is the offset of the next
 * item (base64url), opaque to callers.
 */
export function listPage<Item>(items: readonly Item[], query: PageQuery): ListEnvelope<Item> {
  const limit = parseLimit(query.limit);
  const offset = query.cursor == null ? 0 : decodeCursor(query.cursor, 'o');
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
export function newestFirstPage<Item>(
  order: readonly string[],
  pick: (id: string) => Item | undefined,
  query: PageQuery,
): ListEnvelope<Item> {
  const limit = parseLimit(query.limit);
  const start = query.cursor == null ? order.length - 1 : decodeCursor(query.cursor, 'p');
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

/** A page size: 1–100, default 20 (400 `validation_error` otherwise). */
export function parseLimit(value: PageQuery['limit']): number {
  const limitText = value == null ? null : String(value);
  const limit = limitText === null ? 20 : Number(limitText);
  if (
    limit < 1 ||
    limit > 100 ||
    !/^\d+$/.test(limitText ?? '20') ||
    // Stryker disable next-line ConditionalExpression: digits alone (the pattern above) are always an integer, or Infinity, which is > 100
    !Number.isInteger(limit)
  ) {
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
