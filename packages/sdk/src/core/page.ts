import type { ListEnvelope } from '../wire/common';
import { APIPromise } from './api-promise';

/**
 * One page of a list answer, with the wire fields as they are, that is also an async
 * iterator over every item of this and all following pages (fetched via `next_cursor`).
 *
 * @example
 * for await (const connection of await parley.connections.list()) console.log(connection.id);
 */
export class Page<Item> implements ListEnvelope<Item>, AsyncIterable<Item> {
  readonly object = 'list' as const;
  declare readonly data: Item[];
  declare readonly has_more: boolean;
  declare readonly next_cursor: string | null;
  readonly #fetchPage: (cursor: string) => APIPromise<Page<Item>>;

  constructor(envelope: ListEnvelope<Item>, fetchPage: (cursor: string) => APIPromise<Page<Item>>) {
    this.data = envelope.data;
    this.has_more = envelope.has_more;
    this.next_cursor = envelope.next_cursor;
    this.#fetchPage = fetchPage;
  }

  /** True when another page follows. */
  hasNextPage(): boolean {
    return this.has_more && this.next_cursor !== null;
  }

  /** The following page, or null on the last one. */
  async getNextPage(): Promise<Page<Item> | null> {
    return this.hasNextPage() ? await this.#fetchPage(this.next_cursor!) : null;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page: Page<Item> | null = this;
    while (page) {
      yield* page.data;
      page = await page.getNextPage();
    }
  }
}

/** An {@link APIPromise} of a {@link Page} that can also be iterated directly with `for await`. */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    yield* await this;
  }
}

/** Wraps a list call so its answer becomes a {@link Page} bound to the same call for later pages. */
export function pagePromise<Item>(
  fetchEnvelope: (cursor: string | undefined) => APIPromise<ListEnvelope<Item>>,
  cursor?: string,
): PagePromise<Item> {
  const toPage = (envelope: ListEnvelope<Item>) =>
    new Page(envelope, (next: string) => pagePromise(fetchEnvelope, next));
  return new PagePromise(
    fetchEnvelope(cursor)
      .withResponse()
      .then((exchange) => ({ ...exchange, data: toPage(exchange.data) })),
  );
}
