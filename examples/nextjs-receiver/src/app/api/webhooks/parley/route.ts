// examples/nextjs-receiver/src/app/api/webhooks/parley/route.ts
import { createWebhookHandler } from '@parley/sdk/webhooks';

export const POST = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});
