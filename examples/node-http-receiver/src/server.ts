// examples/node-http-receiver/src/server.ts
import { createServer } from 'node:http';
import { createWebhookHandler } from '@parley/sdk/webhooks';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
}).node();

const server = createServer((req, res) => {
  if (req.url === '/webhooks/parley') return void handler(req, res);
  req.resume(); // drain what we do not read, so the connection can be reused
  res.writeHead(404).end();
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
