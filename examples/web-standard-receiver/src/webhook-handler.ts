import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@parley/sdk/webhooks';

/** Remembers which event ids were already taken, so a retried or replayed delivery is processed once. */
export interface ProcessedEvents {
  /** Records `eventId`; resolves false when it was already recorded. Must be atomic. */
  claim(eventId: string): boolean | Promise<boolean>;
}

/**
 * A process-local {@link ProcessedEvents}. In production use your database (a unique key on the
 * event id) or Redis (`SET parley:evt_… 1 NX EX 86400`) so every instance shares it.
 */
export class InMemoryProcessedEvents implements ProcessedEvents {
  readonly #seen = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  claim(eventId: string): boolean {
    if (this.#seen.has(eventId)) return false;
    this.#seen.add(eventId);
    // Parley retries for about 20.5 h; a bounded set keeps memory flat, oldest ids leave first.
    if (this.#seen.size > this.#capacity) this.#seen.delete(this.#seen.values().next().value as string);
    return true;
  }
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The endpoint's signing secret (`whsec_…`), or both secrets while you roll a rotation out. */
  secret: string | readonly string[];
  /** Your work for one event; runs after the answer, once per event id. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Where processed event ids are kept (default: in memory). */
  processed?: ProcessedEvents;
  /**
   * Keeps the work alive after the response: `ctx.waitUntil` on Cloudflare Workers, `after` in
   * Next.js. The default starts it and logs a failure.
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

/**
 * A webhook receiver as a web-standard `(Request) => Promise<Response>`, the shape Hono, h3,
 * Cloudflare Workers, Next.js route handlers, Bun and Deno all take. It verifies the signature
 * on the raw body, answers 400 to anything unverified, answers 2xx at once, deduplicates on
 * the event id and runs `onEvent` after answering.
 *
 * @example
 * const handler = createWebhookHandler({ secret: process.env.PARLEY_WEBHOOK_SECRET!, onEvent: console.log });
 * export const POST = handler; // Next.js app/api/webhooks/parley/route.ts
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  const processed = options.processed ?? new InMemoryProcessedEvents();
  const waitUntil = options.waitUntil ?? ((work) => void work.catch((error) => console.error(error)));

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
    // Already taken: a retry or a replay. Still 2xx, or Parley would keep retrying it.
    if (!(await processed.claim(event.id))) return new Response(null, { status: 204 });
    waitUntil(Promise.resolve().then(() => options.onEvent(event)));
    return new Response(null, { status: 204 });
  };
}
