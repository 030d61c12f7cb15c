import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

/** One delivery as the receiver got it. */
export interface ReceivedDelivery {
  body: Uint8Array;
  headers: IncomingHttpHeaders;
}

/** A local HTTP listener on 127.0.0.1 and a free port. */
export interface Receiver {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the listener the temporary endpoint points at. `handle` returns the status to answer
 * the emulator with (the app's own status, so the emulator's retries follow the app).
 */
export async function startReceiver(
  handle: (delivery: ReceivedDelivery) => Promise<number>,
): Promise<Receiver> {
  const server = createServer(async (request, response) => {
    try {
      const body = new Uint8Array(await buffer(request));
      const status = await handle({ body, headers: request.headers });
      response.writeHead(status, { 'content-type': 'text/plain' }).end();
    } catch {
      response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
