import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import {
  isWebhookVerificationError,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookVerificationReason,
} from '@parley/sdk';

/** The event of one type, as {@link SandboxReceiver.next} resolves with it. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { type: Type }>;

/** A real `http://127.0.0.1` webhook endpoint of a sandbox, verifying what it receives. */
export interface SandboxReceiver {
  /** Where the emulator delivers: `http://127.0.0.1:<port>/webhooks/parley`. */
  readonly url: string;
  readonly endpointId: string;
  /** The endpoint's signing secret, which every delivery is verified with. */
  readonly secret: string;
  /** Every verified event, in the order the deliveries arrived (a retry or a duplicate twice). */
  readonly received: readonly WebhookEvent[];
  /** Why each refused delivery failed verification (a forged chaos copy, say), in arrival order. */
  readonly refused: readonly WebhookVerificationReason[];
  /**
   * The next verified event (of `type`) not yet taken: once every delivery already due (in any
   * sandbox of the emulator) has been attempted, the earliest by `created_at`, so `sent` comes
   * before `delivered` however the two raced. Rejects at once, saying what is pending, when none
   * is there: deliveries leave when the sandbox's clock reaches them, so advance it first.
   *
   * @example
   * await advance('5s');
   * const event = await hook.next('message.status_updated'); // data.message.status 'sent'
   */
  next<Type extends WebhookEventType>(type: Type): Promise<WebhookEventOf<Type>>;
  next(): Promise<WebhookEvent>;
}

/** How a sandbox receiver settles, explains itself and answers. */
export interface ReceiverSettings {
  /** Resolves once every delivery already due has been attempted (the emulator's `idle`). */
  settle(): Promise<void>;
  /** Why nothing of `type` reached the endpoint: what the emulator still holds for it. */
  explainMissing(endpointId: string, type: WebhookEventType | undefined): Promise<string>;
  /** The status a verified delivery is answered with (default 204). */
  respond?: ((event: WebhookEvent) => number) | undefined;
}

/** A listening receiver whose endpoint is not known yet: {@link ListeningReceiver.attach} completes it. */
export interface ListeningReceiver {
  url: string;
  attach(endpoint: { id: string; secret: string }): SandboxReceiver;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (a free port); deliveries are verified with the secret given to `attach`. */
export async function listenSandboxReceiver(settings: ReceiverSettings): Promise<ListeningReceiver> {
  let secret = '';
  const received: WebhookEvent[] = [];
  const refused: WebhookVerificationReason[] = [];
  const taken = new Set<number>();
  const server = createServer(async (request, response) => {
    try {
      const event = await verifyWebhook(await buffer(request), request.headers, secret);
      // Recorded before the answer: once the emulator has its response, `next` finds the event.
      received.push(event);
      response.writeHead(settings.respond?.(event) ?? 204).end();
    } catch (error) {
      if (!isWebhookVerificationError(error)) {
        // A `respond` that threw, or a connection cut mid-body: a failed attempt, as in a real app.
        if (!response.headersSent) response.writeHead(500).end();
        return;
      }
      refused.push(error.reason);
      response.writeHead(400, { 'content-type': 'application/json' }).end(`{"error":"${error.reason}"}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`;

  let endpointId = '';
  const next = async (type?: WebhookEventType): Promise<WebhookEvent> => {
    await settings.settle();
    let earliest: number | undefined;
    received.forEach((event, index) => {
      if (taken.has(index) || (type !== undefined && event.type !== type)) return;
      if (earliest === undefined || event.created_at < received[earliest]!.created_at) earliest = index;
    });
    if (earliest === undefined) throw new Error(await settings.explainMissing(endpointId, type));
    taken.add(earliest);
    return received[earliest]!;
  };
  return {
    url,
    attach: (endpoint) => {
      secret = endpoint.secret;
      endpointId = endpoint.id;
      return {
        url,
        endpointId: endpoint.id,
        secret: endpoint.secret,
        received,
        refused,
        next: next as SandboxReceiver['next'],
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive sockets of the emulator's agent would otherwise hold the port open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
