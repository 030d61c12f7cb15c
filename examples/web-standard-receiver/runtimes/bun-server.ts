// examples/web-standard-receiver/runtimes/bun-server.ts
import { createWebhookHandler } from '@parley/sdk/webhooks';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  routes: { '/webhooks/parley': handler },
  fetch: () => new Response('Not Found', { status: 404 }),
});
console.log(`listening on http://127.0.0.1:${server.port}`);
