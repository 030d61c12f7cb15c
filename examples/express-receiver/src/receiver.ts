import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@parley/sdk/webhooks';
import express, { type Express } from 'express';

/** Options of {@link createReceiverApp}. */
export interface ReceiverOptions {
  /** The endpoint's signing secret (`whsec_…`), or both secrets while you roll a rotation out. */
  secret: string | readonly string[];
  /** Your work for one event; runs after the answer, once per event id. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Records an event id; false when it was already recorded (default: in memory; use your database). */
  claim?: (eventId: string) => boolean | Promise<boolean>;
}

/**
 * An Express 5 app that receives Parley webhooks on `POST /webhooks/parley`: raw body, verified
 * signature, 400 for anything unverified, 204 at once, each event id processed once.
 */
export function createReceiverApp(options: ReceiverOptions): Express {
  const seen = new Set<string>();
  const claim =
    options.claim ??
    ((eventId: string) => {
      if (seen.has(eventId)) return false;
      seen.add(eventId);
      return true;
    });
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
    const first = await claim(event.id);
    // Answer before doing the work: Parley waits 15 s at most, and a slow answer means retries.
    res.status(204).end();
    if (first) {
      Promise.resolve()
        .then(() => options.onEvent(event))
        .catch((error: unknown) => console.error(`processing ${event.id} failed`, error));
    }
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
