// examples/hono-receiver/src/worker.ts
import { createWebhookHandler, type WebhookHandler } from '@parley/sdk/webhooks';
import { Hono } from 'hono';

const app = new Hono<{ Bindings: { PARLEY_WEBHOOK_SECRET: string } }>();
let handler: WebhookHandler | undefined; // one per isolate: its duplicate memory lives in it

app.post('/webhooks/parley', (c) => {
  // A Worker's variables arrive with the first request (c.env), not at import.
  handler ??= createWebhookHandler({
    secret: c.env.PARLEY_WEBHOOK_SECRET,
    on: {
      'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
      'message.status_updated': async (event) =>
        console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
    },
  });
  return handler(c.req.raw);
});

export default app;
