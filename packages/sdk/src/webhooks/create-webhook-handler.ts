import { type DeliveryAnswer, deliveryProcessor, errorReporter } from './_process-delivery';
import { readBounded, streamChunks } from './_read-bounded';
import { WEBHOOK_OUTCOME_HEADER } from './headers';
import { type NodeWebhookListener, nodeListener } from './node-listener';
import type { WebhookHandlerOptions } from './webhook-handler-options';

/** A web-standard webhook receiver, with {@link WebhookHandler.node} for Node's request/response. */
export interface WebhookHandler {
  (request: Request): Promise<Response>;
  /**
   * The same receiver as a Node `(req, res)` listener, for `http.createServer`, Express and Fastify.
   * It reads the raw body itself, or takes the Buffer `express.raw()` left; a body a JSON parser
   * already read is answered 500 `body_already_parsed` and reported with the fix.
   *
   * @example
   * app.post('/webhooks/parley', handler.node()); // Express, before any express.json()
   * http.createServer(handler.node()).listen(3000);
   */
  node(): NodeWebhookListener;
}

/**
 * A webhook receiver that is right by construction: it verifies the signature on the raw body,
 * runs the handler of the event's type, and answers so Parley retries exactly what needs it.
 *
 * | case | answer |
 * | --- | --- |
 * | not a POST | 405 |
 * | body over `maxBodyBytes` (default 1 MiB) | 413 `{ "error": "payload_too_large" }` |
 * | verification failed | 400 `{ "error": reason }` |
 * | verified, but not an event of the documented shape | 400 `{ "error": "invalid_payload", "message": … }` naming the field |
 * | handler succeeded; duplicate event id; stale status; no own handler in `on` for the type | 204, with `Parley-Webhook-Outcome` saying which |
 * | handler threw (reported through `onError`) | 500 `{ "error": "handler_failed" }` |
 * | set-up error: missing secret, failing store (reported) | 500 `{ "error": "internal_error" }` |
 *
 * Delivery is at least once and in no particular order, so an event id is recorded only after
 * its handler succeeded (a retry of a failed one is processed), and a status update older than
 * one already processed for the same message is acknowledged without calling the handler.
 * Whatever the body, the returned promise resolves to an answer; it never rejects.
 * Web-standard APIs only: Node, Bun, Deno, edge workers.
 *
 * @example
 * const handler = createWebhookHandler({
 *   secret: process.env.PARLEY_WEBHOOK_SECRET!,
 *   on: {
 *     'message.status_updated': async (event) => db.setStatus(event.data.message.id, event.data.message.status),
 *     'message.received': async (event) => inbox.add(event.data.message),
 *   },
 * });
 * export const POST = handler; // Next.js route handler; Express: app.post('/webhooks/parley', handler.node())
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const process = deliveryProcessor(options);
  const report = errorReporter(options);
  const handler = async (request: Request) =>
    toResponse(
      await process(request.method, request.headers, (maxBytes) =>
        readBounded(streamChunks(request.body), maxBytes),
      ),
    );
  // A method, not `node: …`: the default build is checked to contain no `node:` text at all.
  return Object.assign(handler, {
    node() {
      return nodeListener(process, report);
    },
  });
}

function toResponse({ status, outcome, ...body }: DeliveryAnswer): Response {
  const headers = new Headers();
  if (status === 405) headers.set('allow', 'POST');
  if (outcome) headers.set(WEBHOOK_OUTCOME_HEADER, outcome);
  return body.error ? Response.json(body, { status, headers }) : new Response(null, { status, headers });
}
