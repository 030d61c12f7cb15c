import { describe, expect, test } from 'vitest';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import { listPage, newestFirstPage, type PageQuery, parseLimit } from './list-page';

// docs/api-reference.md (list envelope), docs/decisions.md (`limit` / `cursor`).
const LIMIT_REFUSAL = {
  code: 'validation_error',
  status: 400,
  message: 'limit must be an integer from 1 to 100.',
  details: { field: 'limit', reason: 'invalid_value' },
};
const CURSOR_REFUSAL = {
  code: 'validation_error',
  status: 400,
  message: 'cursor is not one this API returned.',
  details: { field: 'cursor', reason: 'invalid_value' },
};

/** A cursor this API did not return: the given text, encoded as the API encodes its own. */
const forged = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Cursors a list did not return, named for the test title: malformed, or of the list's own `kind`
 * (`o` offset, `p` newest-first position) with a bad position, or the other list's kind.
 */
const cursorsNotReturned = (kind: string, otherName: string, other: string): [string, string][] => [
  ['not base64 of a cursor', 'not-a-cursor'],
  ['empty', ''],
  [otherName, forged(`${other}:2`)],
  ['no position', forged(`${kind}:`)],
  ['text before', forged(`x${kind}:2`)],
  ['text after', forged(`${kind}:2x`)],
  ['a negative position', forged(`${kind}:-2`)],
  ['a position of 10 digits', forged(`${kind}:1000000000`)],
];

/** `count` ids, oldest first: m1 … m<count>. */
const ids = (count: number) => Array.from({ length: count }, (_, index) => `m${index + 1}`);

describe('parseLimit: 1–100 written in digits, default 20 (docs/decisions.md)', () => {
  test('absent or null: 20', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit(null)).toBe(20);
  });

  test.each([
    [1, 1],
    ['1', 1],
    [5, 5],
    ['42', 42],
    [100, 100],
    ['100', 100],
  ] as const)('%j: %i', (value, limit) => {
    expect(parseLimit(value)).toBe(limit);
  });

  test.each([
    0,
    '0',
    101,
    '101',
    -1,
    '-1',
    2.5,
    '2.5',
    '1.0',
    '+5',
    ' 5',
    '5 ',
    '1e1',
    '0x10',
    '',
    'abc',
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ])('%j: 400 validation_error naming limit', (value) => {
    expect(thrownDomainError(() => parseLimit(value))).toMatchObject(LIMIT_REFUSAL);
  });
});

describe('listPage: oldest first, by offset (GET /v1/connections, templates, …)', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  test('first, middle and last page, each by the previous next_cursor', () => {
    const first = listPage(items, { limit: 2 });
    expect(first).toMatchObject({ object: 'list', data: ['a', 'b'], has_more: true });
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = listPage(items, { limit: 2, cursor: first.next_cursor });
    expect(second).toMatchObject({ object: 'list', data: ['c', 'd'], has_more: true });
    const last = listPage(items, { limit: '2', cursor: second.next_cursor });
    expect(last).toEqual({ object: 'list', data: ['e'], has_more: false, next_cursor: null });
  });

  test('a last page that is exactly full has no more and no cursor', () => {
    const first = listPage(items.slice(0, 4), { limit: 2 });
    expect(first).toMatchObject({ data: ['a', 'b'], has_more: true });
    expect(listPage(items.slice(0, 4), { limit: 2, cursor: first.next_cursor })).toEqual({
      object: 'list',
      data: ['c', 'd'],
      has_more: false,
      next_cursor: null,
    });
    expect(listPage(items, { limit: 5 })).toEqual({
      object: 'list',
      data: items,
      has_more: false,
      next_cursor: null,
    });
  });

  test('default limit 20: 20 items are one page, 21 are two', () => {
    const twenty = Array.from({ length: 20 }, (_, index) => index);
    expect(listPage(twenty, {})).toEqual({
      object: 'list',
      data: twenty,
      has_more: false,
      next_cursor: null,
    });
    const first = listPage([...twenty, 20], { cursor: null, limit: null });
    expect(first).toMatchObject({ data: twenty, has_more: true });
    expect(listPage([...twenty, 20], { cursor: first.next_cursor })).toEqual({
      object: 'list',
      data: [20],
      has_more: false,
      next_cursor: null,
    });
  });

  test('nothing to list: an empty last page', () => {
    expect(listPage([], {})).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('a bad limit is refused before anything is listed', () => {
    expect(thrownDomainError(() => listPage(items, { limit: 101 }))).toMatchObject(LIMIT_REFUSAL);
  });

  test.each(cursorsNotReturned('o', 'a newestFirstPage cursor', 'p'))(
    'a cursor it did not return (%s): 400 naming cursor',
    (_, cursor) => {
      expect(thrownDomainError(() => listPage(items, { cursor }))).toMatchObject(CURSOR_REFUSAL);
    },
  );
});

describe('newestFirstPage: GET /_emulator/messages, newest first (docs/decisions.md: message history)', () => {
  /** Records by id; `skip` ids are filtered out (another application's messages). */
  const pickFrom =
    (skip: readonly string[] = []) =>
    (id: string) =>
      skip.includes(id) ? undefined : { id };
  const page = (order: readonly string[], query: PageQuery, skip?: readonly string[]) => {
    const result = newestFirstPage(order, pickFrom(skip), query);
    return { ...result, data: result.data.map((record) => record.id) };
  };

  test('first, middle and last page, newest first, each by the previous next_cursor', () => {
    const order = ids(5);
    const first = page(order, { limit: 2 });
    expect(first).toMatchObject({ object: 'list', data: ['m5', 'm4'], has_more: true });
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = page(order, { limit: 2, cursor: first.next_cursor });
    expect(second).toMatchObject({ object: 'list', data: ['m3', 'm2'], has_more: true });
    expect(page(order, { limit: 2, cursor: second.next_cursor })).toEqual({
      object: 'list',
      data: ['m1'],
      has_more: false,
      next_cursor: null,
    });
  });

  test('a last page that is exactly full, down to the oldest, has no more and no cursor', () => {
    const order = ids(4);
    const first = page(order, { limit: 2 });
    expect(first).toMatchObject({ data: ['m4', 'm3'], has_more: true });
    expect(page(order, { limit: 2, cursor: first.next_cursor })).toEqual({
      object: 'list',
      data: ['m2', 'm1'],
      has_more: false,
      next_cursor: null,
    });
    expect(page(order, {})).toEqual({
      object: 'list',
      data: ['m4', 'm3', 'm2', 'm1'],
      has_more: false,
      next_cursor: null,
    });
  });

  test('default limit 20: 20 messages are one page, 21 are two', () => {
    const newestFirst = (count: number) => ids(count).reverse();
    expect(page(ids(20), {})).toEqual({
      object: 'list',
      data: newestFirst(20),
      has_more: false,
      next_cursor: null,
    });
    const first = page(ids(21), { limit: null, cursor: null });
    expect(first).toMatchObject({ data: newestFirst(21).slice(0, 20), has_more: true });
    expect(page(ids(21), { cursor: first.next_cursor })).toEqual({
      object: 'list',
      data: ['m1'],
      has_more: false,
      next_cursor: null,
    });
  });

  test('positions of several digits page on (30 messages, limit 10)', () => {
    const order = ids(30);
    const first = page(order, { limit: 10 });
    const second = page(order, { limit: 10, cursor: first.next_cursor });
    expect(second).toMatchObject({ data: ids(20).slice(10).reverse(), has_more: true });
    expect(page(order, { limit: 10, cursor: second.next_cursor })).toEqual({
      object: 'list',
      data: ids(10).reverse(),
      has_more: false,
      next_cursor: null,
    });
  });

  test('no messages: an empty last page', () => {
    expect(page([], {})).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('messages that arrive between pages do not shift the next page', () => {
    const order = ids(5);
    const first = page(order, { limit: 2 });
    order.push('m6', 'm7');
    expect(page(order, { limit: 2, cursor: first.next_cursor })).toMatchObject({
      data: ['m3', 'm2'],
      has_more: true,
    });
  });

  test('a filter: skipped records are not shown, and has_more only says another match exists', () => {
    const order = ids(6);
    const skip = ['m6', 'm4', 'm1'];
    const first = page(order, { limit: 2 }, skip);
    expect(first).toMatchObject({ data: ['m5', 'm3'], has_more: true });
    // m1 is there but filtered out: m2 is the last match.
    expect(page(order, { limit: 2, cursor: first.next_cursor }, skip)).toEqual({
      object: 'list',
      data: ['m2'],
      has_more: false,
      next_cursor: null,
    });
    expect(page(order, { limit: 1 }, ['m1'])).toMatchObject({ data: ['m6'], has_more: true });
    expect(page(order, { limit: 1 }, ['m1', 'm2', 'm3', 'm4', 'm5'])).toEqual({
      object: 'list',
      data: ['m6'],
      has_more: false,
      next_cursor: null,
    });
  });

  test('a page costs what it shows: the page and one more match are picked, no more', () => {
    const picked: string[] = [];
    const result = newestFirstPage(
      ids(100),
      (id) => {
        picked.push(id);
        return id;
      },
      { limit: 2 },
    );
    expect(result.data).toEqual(['m100', 'm99']);
    expect(picked).toEqual(['m100', 'm99', 'm98']);
  });

  test('a cursor past the end of the history (it was reset since): 400 naming cursor', () => {
    const cursor = page(ids(5), { limit: 1 }).next_cursor; // the position of m4
    expect(thrownDomainError(() => page(ids(3), { cursor }))).toMatchObject(CURSOR_REFUSAL);
    expect(page(ids(4), { cursor, limit: 1 })).toMatchObject({ data: ['m4'], has_more: true });
  });

  test('a bad limit is refused before anything is picked', () => {
    expect(thrownDomainError(() => page(ids(3), { limit: 0 }))).toMatchObject(LIMIT_REFUSAL);
  });

  test.each(cursorsNotReturned('p', 'a listPage cursor', 'o'))(
    'a cursor it did not return (%s): 400 naming cursor',
    (_, cursor) => {
      expect(thrownDomainError(() => page(ids(5), { cursor }))).toMatchObject(CURSOR_REFUSAL);
    },
  );
});
