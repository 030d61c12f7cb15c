import type { ListEnvelope } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';

/**
 * One page of `items` in the list envelope (DESIGN §2): `limit` 1–100 (default 20); `cursor` is
 * opaque to callers (the offset of the next item, base64url).
 */
export function paginate<Item>(items: readonly Item[], url: URL): ListEnvelope<Item> {
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !/^\d+$/.test(limitText ?? '20')) {
    throw new DomainError('validation_error', 'limit must be an integer from 1 to 100.', {
      field: 'limit',
      reason: 'invalid_value',
    });
  }
  const cursor = url.searchParams.get('cursor');
  const offset = cursor === null ? 0 : decodeCursor(cursor);
  const data = items.slice(offset, offset + limit);
  const hasMore = offset + limit < items.length;
  return {
    object: 'list',
    data,
    has_more: hasMore,
    next_cursor: hasMore ? Buffer.from(`o:${offset + limit}`).toString('base64url') : null,
  };
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) {
    throw new DomainError('validation_error', 'cursor is not one this API returned.', {
      field: 'cursor',
      reason: 'invalid_value',
    });
  }
  return Number(match[1]);
}
