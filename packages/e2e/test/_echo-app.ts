import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Parley, verifyWebhook, type WebhookEvent } from '@parley/sdk';

/**
 * A real app: it verifies each delivery with the SDK and answers every `message.received` by
 * sending `echo: <text>` back to the sender through the SDK. `set` points it at an application.
 */
export async function startEchoApp(baseUrl: string) {
  const received: WebhookEvent[] = [];
  const app = { key: '', secret: '' };
  let replied: (() => void) | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        const event = await verifyWebhook(Buffer.concat(chunks), request.headers, app.secret);
        received.push(event);
        if (event.type === 'message.received') {
          const message = event.data.message;
          const parley = new Parley({ apiKey: app.key, baseUrl, maxRetries: 0 });
          await parley.messages.send({
            connection_id: message.connection_id,
            to: message.from!,
            type: 'text',
            text: `echo: ${message.text}`,
          });
          replied?.();
        }
        response.statusCode = 200;
      } catch {
        response.statusCode = 400;
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    set: (key: string, secret: string) => Object.assign(app, { key, secret }),
    /** Resolves once the app has sent its next reply. */
    nextReply: () =>
      new Promise<void>((resolve) => {
        replied = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
