// examples/fastify-receiver/src/server.ts
import { createWebhookHandler } from '@parley/sdk/webhooks';
import Fastify from 'fastify';

const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: {
    'message.received': async (event) => console.log(`received ${event.data.message.id} (${event.id})`),
    'message.status_updated': async (event) =>
      console.log(`${event.data.message.status} ${event.data.message.id} (${event.id})`),
  },
});

const fastify = Fastify();
// Its own scope, with no body parser: the handler reads the raw body and answers on the raw response.
fastify.register(async (webhooks) => {
  webhooks.removeAllContentTypeParsers();
  webhooks.addContentTypeParser('*', (_request, _payload, done) => done(null)); // leaves the body unread
  webhooks.post('/webhooks/parley', async (request, reply) => {
    reply.hijack();
    await handler.node()(request.raw, reply.raw);
  });
});

const address = await fastify.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}`);
