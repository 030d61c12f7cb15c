// examples/hono-receiver/src/node-server.ts
import { serve } from '@hono/node-server';
import { createWebhookHandler } from '@parley/sdk/webhooks';
import { Hono } from 'hono';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!, // on Node, c.env holds no variables: read process.env
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

const app = new Hono();
app.post('/webhooks/parley', (c) => handler(c.req.raw));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) =>
  console.log(`listening on http://127.0.0.1:${info.port}`),
);
