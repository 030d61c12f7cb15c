import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@parley/sdk/webhooks';

/** Remembers which event ids were processed, so a retried or replayed delivery is processed once. */
export interface ProcessedEvents {
  /** Whether `eventId` was already processed successfully. */
  has(eventId: string): boolean | Promise<boolean>;
  /** Records `eventId` as processed: called only once its work succeeded. */
  add(eventId: string): void | Promise<void>;
}

/**
 * A process-local {@link ProcessedEvents}. In production use your database (a unique key on the
 * event id, inserted in the same transaction as the work) or Redis (`SET parley:evt_… 1 EX 86400`)
 * so every instance shares it.
 */
export class InMemoryProcessedEvents implements ProcessedEvents {
  readonly #seen = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  has(eventId: string): boolean {
    return this.#seen.has(eventId);
  }

  add(eventId: string): void {
    this.#seen.add(eventId);
    // Parley retries for about 20.5 h; a bounded set keeps memory flat, oldest ids leave first.
    if (this.#seen.size > this.#capacity) this.#seen.delete(this.#seen.values().next().value as string);
  }
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The endpoint's signing secret (`whsec_…`), or both secrets while you roll a rotation out. */
  secret: string | readonly string[];
  /**
   * Your work for one event, once per event id. Keep it short (Parley waits 15 s): hand long work
   * to your own durable queue here. If it throws, the answer is 500 and Parley retries the delivery.
   */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Where processed event ids are kept (default: in memory). */
  processed?: ProcessedEvents;
}

/**
 * A webhook receiver as a web-standard `(Request) => Promise<Response>`, the shape Hono, h3,
 * Cloudflare Workers, Next.js route handlers, Bun and Deno all take. It verifies the signature
 * on the raw body, answers 400 to anything unverified, skips an event id already processed (2xx),
 * runs `onEvent`, and only when that succeeded records the id and answers 204. A handler that
 * throws gets a 500 and its id stays unrecorded, so the retry is processed: nothing is lost.
 *
 * @example
 * const handler = createWebhookHandler({ secret: process.env.PARLEY_WEBHOOK_SECRET!, onEvent: console.log });
 * export const POST = handler; // Next.js app/api/webhooks/parley/route.ts
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  const processed = options.processed ?? new InMemoryProcessedEvents();

  return async (request) => {
    if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 });
    let event: WebhookEvent;
    try {
      // Bytes, not a parsed object: the signature covers the body exactly as sent.
      const body = new Uint8Array(await request.arrayBuffer());
      event = await verifyWebhook(body, request.headers, options.secret);
    } catch (error) {
      if (isWebhookVerificationError(error)) return Response.json({ error: error.reason }, { status: 400 });
      throw error;
    }
    // Already processed: a retry or a replay. Still 2xx, or Parley would keep retrying it.
    if (await processed.has(event.id)) return new Response(null, { status: 204 });
    try {
      await options.onEvent(event);
    } catch (error) {
      console.error(`webhook ${event.id} (${event.type}) failed; Parley will retry it:`, error);
      return Response.json({ error: 'handler_failed' }, { status: 500 });
    }
    // Recorded only now: an event whose work failed must be processed when it comes again.
    await processed.add(event.id);
    return new Response(null, { status: 204 });
  };
}
