import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a receiver treats one attempt: answer with a status, hang (never answer), or reset the socket. */
export type AttemptBehaviour = { answer: number; afterMs?: number } | 'hang' | 'reset';

/** A receiver that records, per event id, how many attempts came and whether one was answered 2xx. */
export interface BehavingReceiver {
  url: string;
  attempts: Map<string, number>;
  /** Event ids answered with a 2xx, with the body and headers of that attempt. */
  delivered: Map<string, { body: string; headers: IncomingHttpHeaders }>;
  /** For each attempt left hanging: real milliseconds until the sender gave up and closed it. */
  abandonedAfterMs: number[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 whose answer to attempt `n` (1-based) of an event is `behave(n, eventId)`. */
export async function startBehavingReceiver(
  behave: (attempt: number, eventId: string, arrival: number) => AttemptBehaviour,
): Promise<BehavingReceiver> {
  const attempts = new Map<string, number>();
  const delivered: BehavingReceiver['delivered'] = new Map();
  let arrivals = 0;
  const hanging = new Set<ServerResponse>();
  const abandonedAfterMs: number[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const eventId = String(request.headers['parley-event-id'] ?? '');
      const attempt = (attempts.get(eventId) ?? 0) + 1;
      attempts.set(eventId, attempt);
      const behaviour = behave(attempt, eventId, ++arrivals);
      if (behaviour === 'reset') return void request.socket.destroy();
      if (behaviour === 'hang') {
        const since = performance.now();
        response.on('close', () => {
          if (hanging.delete(response)) abandonedAfterMs.push(performance.now() - since);
        });
        return void hanging.add(response);
      }
      const finish = () => {
        if (behaviour.answer >= 200 && behaviour.answer < 300)
          delivered.set(eventId, { body: Buffer.concat(chunks).toString(), headers: request.headers });
        response.writeHead(behaviour.answer).end();
      };
      if (behaviour.afterMs) setTimeout(finish, behaviour.afterMs);
      else finish();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    attempts,
    delivered,
    abandonedAfterMs,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of [...hanging]) {
          hanging.delete(response);
          response.destroy();
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
