import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** One request a test receiver got, body as the exact bytes received. */
export interface ReceivedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The TLS SNI name the client sent (https receivers only). */
  servername?: string | false | null | undefined;
}

/** A real HTTP(S) receiver on 127.0.0.1 (port 0) for delivery tests. */
export interface TestReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number;
  close(): Promise<void>;
}

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

/** The self-signed certificate of `*.parley.test` that https receivers serve; trust it with `network.ca`. */
export const TEST_CA = fixture('parley-test.cert.pem');
/** The private key of {@link TEST_CA}, for a test's own https server. */
export const TEST_TLS_KEY = fixture('parley-test.key.pem');

/**
 * Starts a receiver; `respond` answers each request once its body is read (default 200).
 * `tls: true` serves https with the `*.parley.test` test certificate.
 */
export async function startReceiver(
  respond: (response: ServerResponse, request: IncomingMessage) => void = (response) => response.end('ok'),
  options: { tls?: boolean } = {},
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const servername = options.tls ? (request.socket as TLSSocket).servername : undefined;
      requests.push({
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
        servername,
      });
      respond(response, request);
    });
  };
  const server = options.tls
    ? createTlsServer({ cert: TEST_CA, key: TEST_TLS_KEY }, handle)
    : createServer(handle);
  server.on('connection', () => void connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hooks`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
