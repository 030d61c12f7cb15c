// examples/express-receiver/src/server.ts
import { createWebhookHandler } from '@parley/sdk/webhooks';
import express from 'express';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

const app = express();
app.post('/webhooks/parley', handler.node()); // reads the raw body itself: before any JSON parser
app.use(express.json()); // your other routes, AFTER the webhook route

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
