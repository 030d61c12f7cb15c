// examples/koa-receiver/src/server.ts
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { createWebhookHandler } from '@parley/sdk/webhooks';
import Koa from 'koa';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

const webhooks = new Router();
webhooks.post('/webhooks/parley', async (ctx) => {
  ctx.respond = false; // the handler answers on the raw response
  await handler.node()(ctx.req, ctx.res);
});

const app = new Koa();
app.use(webhooks.routes()); // before bodyParser(): the handler reads the raw body itself
app.use(bodyParser()); // your other routes, AFTER the webhook route

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
