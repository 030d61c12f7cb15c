import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedDelivery, TEST_SECRET, testEvent } from '@parley/test-utils';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../wire/event';
import { createWebhookHandler } from './create-webhook-handler';

// createWebhookHandler reads at most maxBodyBytes (default 1 MiB) of a delivery: a larger body is
// answered 413 payload_too_large, never kept whole, never verified, never handled.

const MIB = 1_048_576;
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`;
}

function receiver(maxBodyBytes?: number) {
  const handled: WebhookEvent[] = [];
  const handler = createWebhookHandler({
    secret: TEST_SECRET,
    on: { 'webhook.test': (event) => void handled.push(event) },
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  });
  return { handler, handled };
}

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/webhooks/parley', { method: 'POST', body, headers });

describe('maxBodyBytes', () => {
  it('a signed delivery of exactly maxBodyBytes is verified and handled; one byte less allowed is 413', async () => {
    const event = testEvent();
    const { body, headers } = await signedDelivery(event);
    const size = new TextEncoder().encode(body).byteLength;
    const atLimit = receiver(size);
    expect((await atLimit.handler(post(body, headers))).status).toBe(204);
    expect(atLimit.handled).toEqual([event]);
    const past = receiver(size - 1);
    const refused = await past.handler(post(body, headers));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: 'payload_too_large' });
    expect(past.handled).toEqual([]);
  });

  it('defaults to 1 MiB: 1,048,576 bytes are read and verified (400), 1,048,577 are 413', async () => {
    const { handler } = receiver();
    const read = await handler(post('x'.repeat(MIB)));
    expect(read.status).toBe(400);
    expect(await read.json()).toEqual({ error: 'missing_header' });
    const refused = await handler(post('x'.repeat(MIB + 1)));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: 'payload_too_large' });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses maxBodyBytes %s at creation',
    (value) => {
      expect(() => receiver(value)).toThrow(
        new TypeError(`createWebhookHandler: maxBodyBytes must be a whole number of bytes ≥ 1, not ${value}`),
      );
    },
  );

  it('accepts maxBodyBytes 1 (every real body is then 413)', async () => {
    const { handler } = receiver(1);
    expect((await handler(post('x'))).status).toBe(400);
    expect((await handler(post('xy'))).status).toBe(413);
  });
});

describe('maxBodyBytes in handler.node()', () => {
  it('node:http: a 4 MiB body is read to its end and answered 413, which the sender reads', async () => {
    const { handler, handled } = receiver();
    const url = await serve(handler.node());
    const response = await fetch(url, { method: 'POST', body: new Uint8Array(4 * MIB) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'payload_too_large' });
    expect(handled).toEqual([]);
  });

  it('counts a text stream in UTF-8 bytes, not characters', async () => {
    const { handler } = receiver(10);
    const listen = handler.node();
    const url = await serve((req, res) => {
      req.setEncoding('utf8');
      return listen(req, res);
    });
    // 10 bytes is read (then refused by verification); 6 characters of 2 bytes each is 12 bytes.
    expect((await fetch(url, { method: 'POST', body: 'x'.repeat(10) })).status).toBe(400);
    expect((await fetch(url, { method: 'POST', body: 'é'.repeat(6) })).status).toBe(413);
  });

  it('express.raw: the Buffer it left is measured too', async () => {
    const { handler, handled } = receiver(64);
    const app = express();
    app.post('/webhooks/parley', express.raw({ type: 'application/json', limit: '1mb' }), handler.node());
    const url = await serve(app);
    const { body, headers } = await signedDelivery(testEvent());
    const response = await fetch(url, { method: 'POST', headers, body });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'payload_too_large' });
    expect(handled).toEqual([]);
  });
});
