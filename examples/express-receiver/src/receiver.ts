import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createWebhookHandler, type WebhookEvent, type WebhookHandlerOptions } from '@parley/sdk/webhooks';
import express, { type Express } from 'express';

/**
 * An Express 5 app that receives Parley webhooks on `POST /webhooks/parley`. `createWebhookHandler`
 * verifies the raw body, answers 400 to anything unverified, runs your handler of the event's type
 * once per event id (a retry or a replay is answered 204 without it), drops a status older than one
 * already handled, and answers 500 when your handler throws, so Parley retries it.
 *
 * @example
 * const app = createReceiverApp({
 *   secret: process.env.PARLEY_WEBHOOK_SECRET!,
 *   on: { 'message.received': (event) => inbox.add(event.data.message) },
 * });
 */
export function createReceiverApp(options: WebhookHandlerOptions): Express {
  const app = express();
  // .node() reads the raw body itself (the signature covers the exact bytes), so this route comes
  // before express.json(); behind it, a JSON parser would leave only a parsed object (answered 500).
  app.post('/webhooks/parley', createWebhookHandler(options).node());
  app.use(express.json()); // the rest of your API, after the webhook route
  return app;
}

// Run directly: PARLEY_WEBHOOK_SECRET=whsec_… PORT=3000 node src/receiver.ts
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.PARLEY_WEBHOOK_SECRET?.trim();
  if (!secret) {
    console.error('Set PARLEY_WEBHOOK_SECRET to the endpoint signing secret (whsec_…)');
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 3000);
  const log = (event: WebhookEvent) => console.log(`${event.type} ${event.id}`);
  const app = createReceiverApp({
    secret,
    on: {
      'message.received': (event) => log(event),
      'message.status_updated': (event) => log(event),
    },
    onUnhandled: log,
  });
  const server = app.listen(port, '127.0.0.1', () => {
    const { port: bound } = server.address() as AddressInfo;
    console.log(`listening on http://127.0.0.1:${bound}/webhooks/parley`);
  });
}
