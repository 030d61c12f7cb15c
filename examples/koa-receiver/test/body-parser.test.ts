import type { Server } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { createWebhookHandler } from '@parley/sdk/webhooks';
import { signedDelivery, TEST_SECRET, testEvent } from '@parley/test-utils';
import Koa from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('the Koa recipe, set up the wrong way round', () => {
  it('names the fix for Koa when @koa/bodyparser read the body first: 500, reported, nothing handled', async () => {
    const handled = vi.fn();
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TEST_SECRET, on: { 'webhook.test': handled }, onError });
    const webhooks = new Router();
    webhooks.post('/webhooks/parley', async (ctx) => {
      ctx.respond = false;
      await handler.node()(ctx.req, ctx.res);
    });
    const app = new Koa();
    app.use(bodyParser()); // the mistake: the parser runs before the webhook route
    app.use(webhooks.routes());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const { body, headers } = await signedDelivery(testEvent());

    const response = await fetch(
      `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/parley`,
      {
        method: 'POST',
        headers,
        body,
      },
    );

    expect(response.status).toBe(500);
    const answer = await response.json();
    expect(answer.error).toBe('body_already_parsed');
    expect(answer.message).toContain(
      'on Koa, add the webhook route before bodyParser() from @koa/bodyparser',
    );
    expect(onError).toHaveBeenCalledOnce();
    expect((onError.mock.calls[0]![0] as TypeError).message).toBe(answer.message);
    expect(handled).not.toHaveBeenCalled();
  });
});
