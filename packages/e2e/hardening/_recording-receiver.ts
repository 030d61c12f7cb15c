import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook request as the receiver saw it. */
export interface ReceivedEvent {
  eventId: string;
  type: string;
  /** For message events: the message and the status the event announces. */
  messageId?: string;
  status?: string;
}

/**
 * A loopback webhook receiver that records every request on arrival (before answering, so a kill
 * mid-attempt still counts as "sent"). `failFirst` answers 500 to that share of first attempts,
 * so some deliveries stay pending with a retry due.
 */
export async function recordingReceiver(options: { failFirst?: number } = {}) {
  const received: ReceivedEvent[] = [];
  const seen = new Set<string>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const eventId = String(request.headers['parley-event-id']);
      const event = JSON.parse(body);
      received.push({
        eventId,
        type: event.type,
        messageId: event.data?.message?.id,
        status: event.data?.message?.status,
      });
      const first = !seen.has(eventId);
      seen.add(eventId);
      const fail = first && Math.random() < (options.failFirst ?? 0);
      response.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Event ids per (message, status): a step announced twice shows up as a set of two or more. */
export function eventIdsPerStep(received: readonly ReceivedEvent[]): Map<string, Set<string>> {
  const steps = new Map<string, Set<string>>();
  for (const event of received) {
    if (!event.messageId || !event.status) continue;
    const step = `${event.messageId} ${event.status}`;
    steps.set(step, (steps.get(step) ?? new Set()).add(event.eventId));
  }
  return steps;
}
