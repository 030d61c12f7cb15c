import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@parley/sdk/webhooks';
import express, { type Express } from 'express';

/** Options of {@link createReceiverApp}. */
export interface ReceiverOptions {
  /** The endpoint's signing secret (`whsec_…`), or both secrets while you roll a rotation out. */
  secret: string | readonly string[];
  /**
   * Your work for one event, once per event id. Keep it short (Parley waits 15 s): hand long work to
   * your own durable queue here. If it throws, the answer is 500 and Parley retries the delivery.
   */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Where processed event ids are kept (default: in memory; use your database). */
  processed?: {
    has(eventId: string): boolean | Promise<boolean>;
    add(eventId: string): void | Promise<void>;
  };
}

/**
 * An Express 5 app that receives Parley webhooks on `POST /webhooks/parley`: raw body, verified
 * signature, 400 for anything unverified, each event id processed once: its id is recorded only
 * after `onEvent` succeeded, so an event whose work failed (500) is processed when Parley retries it.
 */
export function createReceiverApp(options: ReceiverOptions): Express {
  const seen = new Set<string>();
  const processed = options.processed ?? {
    has: (id: string) => seen.has(id),
    add: (id: string) => void seen.add(id),
  };
  const app = express();

  // express.raw on this route only, and before any express.json(): the signature covers the
  // exact bytes, and a parsed-then-restringified body would not match.
  app.post('/webhooks/parley', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(req.body, req.headers, options.secret);
    } catch (error) {
      if (isWebhookVerificationError(error)) {
        res.status(400).json({ error: error.reason });
        return;
      }
      throw error;
    }
    // Already processed: a retry or a replay. Still 2xx, or Parley would keep retrying it.
    if (await processed.has(event.id)) {
      res.status(204).end();
      return;
    }
    try {
      await options.onEvent(event);
    } catch (error) {
      console.error(`webhook ${event.id} (${event.type}) failed; Parley will retry it:`, error);
      res.status(500).json({ error: 'handler_failed' });
      return;
    }
    // Recorded only now: an event whose work failed must be processed when it comes again.
    await processed.add(event.id);
    res.status(204).end();
  });

  app.use(express.json()); // the rest of your API, after the webhook route
  return app;
}

// Run directly: PARLEY_WEBHOOK_SECRET=whsec_… PORT=3000 node src/receiver.ts
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.PARLEY_WEBHOOK_SECRET?.trim();
  if (!secret) {
    console.error('Set PARLEY_WEBHOOK_SECRET to the endpoint signing secret (whsec_…)');
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 3000);
  const app = createReceiverApp({
    secret,
    onEvent: (event) => console.log(`${event.type} ${event.id}`),
  });
  const server = app.listen(port, '127.0.0.1', () => {
    const { port: bound } = server.address() as AddressInfo;
    console.log(`listening on http://127.0.0.1:${bound}/webhooks/parley`);
  });
}
