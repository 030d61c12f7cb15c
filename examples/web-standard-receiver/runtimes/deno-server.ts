// examples/web-standard-receiver/runtimes/deno-server.ts
import { createWebhookHandler } from '@parley/sdk/webhooks';

const handler = createWebhookHandler({
  secret: Deno.env.get('PARLEY_WEBHOOK_SECRET')!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
  },
  (request) =>
    new URL(request.url).pathname === '/webhooks/parley'
      ? handler(request)
      : new Response('Not Found', { status: 404 }),
);
