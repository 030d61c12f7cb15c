import { createWebhookHandler, type WebhookHandlerOptions } from '@parley/sdk/webhooks';

/** A fetch-style server, the shape Bun, Deno (`deno serve`) and Cloudflare Workers take as their entry. */
export interface FetchServer {
  fetch(request: Request): Promise<Response>;
}

/**
 * A receiver of Parley webhooks on `POST /webhooks/parley` (404 elsewhere), web-standard
 * `Request` → `Response` only. `createWebhookHandler` verifies the raw body, answers 400 to
 * anything unverified, runs your handler of the event's type once per event id (a retry or a
 * replay is answered 204 without it), drops a status older than one already handled, and
 * answers 500 when your handler throws, so Parley retries it.
 *
 * @example
 * export default createReceiver({ secret: env.PARLEY_WEBHOOK_SECRET, on: { 'message.received': saveMessage } });
 */
export function createReceiver(options: WebhookHandlerOptions): FetchServer {
  const handleWebhook = createWebhookHandler(options);
  return {
    fetch: async (request) =>
      new URL(request.url).pathname === '/webhooks/parley'
        ? handleWebhook(request)
        : new Response('Not Found', { status: 404 }),
  };
}

// `bun src/webhook-handler.ts` or `deno serve --allow-env src/webhook-handler.ts` serve this
// default export. A missing secret does not fail the import: each delivery is then answered 500
// and the error logged, so a build that loads this module without its environment still works.
export default createReceiver({
  secret: globalThis.process?.env.PARLEY_WEBHOOK_SECRET?.trim() ?? '',
  on: {
    'message.received': ({ data: { message } }) =>
      console.log(`message from ${message.from}: ${message.text}`),
    'message.status_updated': ({ data: { message } }) =>
      console.log(`message ${message.id} is ${message.status}`),
  },
  onUnhandled: (event) => console.log(`${event.type} ${event.id}`),
});
