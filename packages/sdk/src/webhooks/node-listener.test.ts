import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedDelivery, TEST_SECRET, testEvent } from '@parley/test-utils';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookEvent } from '../wire/event';
import { createWebhookHandler } from './create-webhook-handler';

const servers: Server[] = [];

/** Serves `listener` on a loopback port; the webhook URL. */
async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`;
}

/** POSTs a signed delivery of `event` (signed with `secret`) to `url`. */
async function post(url: string, event: WebhookEvent, secret = TEST_SECRET): Promise<Response> {
  const { body, headers } = await signedDelivery(event, secret);
  return fetch(url, { method: 'POST', headers, body });
}

function receiver() {
  const handled: WebhookEvent[] = [];
  const onError = vi.fn();
  const handler = createWebhookHandler({
    secret: TEST_SECRET,
    on: {
      'webhook.test': (event) => {
        if (event.data.message === 'fail') throw new Error('database unavailable');
        handled.push(event);
      },
    },
    onError,
  });
  return { handler, handled, onError };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('handler.node() on node:http', () => {
  it('reads the raw body itself: 204, and the event handled once', async () => {
    const { handler, handled } = receiver();
    const url = await serve(handler.node());
    const event = testEvent();
    const answers = [await post(url, event), await post(url, event)];
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(answers.map((answer) => answer.headers.get('parley-webhook-outcome'))).toEqual([
      'processed',
      'duplicate',
    ]);
    expect(await answers[0]!.text()).toBe('');
    expect(handled).toEqual([event]);
  });

  it('400 with the reason, 405 with Allow, 500 when the handler threw', async () => {
    const { handler, onError } = receiver();
    const url = await serve(handler.node());
    const wrongSecret = await post(url, testEvent(), `whsec_${'x'.repeat(32)}`);
    const get = await fetch(url);
    const failing = { ...testEvent(), data: { message: 'fail' } } as WebhookEvent;
    const thrown = await post(url, failing);

    expect([wrongSecret.status, get.status, thrown.status]).toEqual([400, 405, 500]);
    expect(wrongSecret.headers.get('content-type')).toBe('application/json');
    expect(await wrongSecret.json()).toEqual({ error: 'signature_mismatch' });
    expect(get.headers.get('allow')).toBe('POST');
    expect(await thrown.json()).toEqual({ error: 'handler_failed' });
    expect(onError).toHaveBeenCalledExactlyOnceWith(new Error('database unavailable'), failing);
  });

  it('also reads a stream whose encoding was set to text', async () => {
    const { handler, handled } = receiver();
    const listen = handler.node();
    const url = await serve((req, res) => {
      req.setEncoding('utf8');
      return listen(req, res);
    });
    const event = { ...testEvent(), data: { message: 'Ceci est un test — ça marche ✓ 👋' } } as WebhookEvent;
    expect((await post(url, event)).status).toBe(204);
    expect(handled).toEqual([event]);
  });
});

describe('handler.node() in Express', () => {
  const PARSED_BODY =
    'The request body was already read by a body parser, but the signature covers the raw bytes. ' +
    "Register no JSON parser on the webhook route: mount it before express.json(), or use express.raw({ type: 'application/json' }) on it; " +
    'on Fastify, give the route a content-type parser that leaves the body unread; on Koa, add the webhook route before bodyParser() from @koa/bodyparser.';

  it('refuses a body express.json() already parsed: 500 naming the fix, reported, nothing handled', async () => {
    const { handler, handled, onError } = receiver();
    const app = express();
    app.use(express.json());
    app.post('/webhooks/parley', handler.node());
    const response = await post(await serve(app), testEvent());

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'body_already_parsed', message: PARSED_BODY });
    const [error, event] = onError.mock.calls[0]!;
    expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
    expect((error as TypeError).message).toBe(PARSED_BODY);
    expect(event).toBeUndefined();
    expect(handled).toEqual([]);
  });

  it('refuses a body another middleware read without keeping it', async () => {
    const { handler, onError } = receiver();
    const app = express();
    app.use(async (req, _res, next) => {
      for await (const _chunk of req);
      next();
    });
    app.post('/webhooks/parley', handler.node());
    const response = await post(await serve(app), testEvent());
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: 'body_already_parsed' });
    expect(onError).toHaveBeenCalledOnce();
  });

  it('works with express.raw on the route (the Buffer it leaves is used)', async () => {
    const { handler, handled } = receiver();
    const app = express();
    app.post('/webhooks/parley', express.raw({ type: 'application/json' }), handler.node());
    app.use(express.json());
    const event = testEvent();
    expect((await post(await serve(app), event)).status).toBe(204);
    expect(handled).toEqual([event]);
  });

  it('works with no parser on the route, before a global express.json()', async () => {
    const { handler, handled } = receiver();
    const app = express();
    app.post('/webhooks/parley', handler.node());
    app.use(express.json());
    const event = testEvent();
    expect((await post(await serve(app), event)).status).toBe(204);
    expect(handled).toEqual([event]);
  });
});
