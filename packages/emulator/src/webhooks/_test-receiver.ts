import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got, body as the exact bytes received. */
export interface ReceivedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A real HTTP receiver on 127.0.0.1 (port 0) for delivery tests. */
export interface TestReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a receiver; `respond` answers each request once its body is read (default 200). */
export async function startReceiver(
  respond: (response: ServerResponse, request: IncomingMessage) => void = (response) => response.end('ok'),
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      respond(response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
