// examples/h3-receiver/src/server.ts
import { createWebhookHandler } from '@parley/sdk/webhooks';
import { H3, serve } from 'h3';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

// h3 v2's event.req is the web Request, unread; never call readBody() before the handler.
const app = new H3().post('/webhooks/parley', (event) => handler(event.req));

const server = serve(app, { hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000), silent: true });
await server.ready();
console.log(`listening on http://127.0.0.1:${new URL(server.url!).port}`);
