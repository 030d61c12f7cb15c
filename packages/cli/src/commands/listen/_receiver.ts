import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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

/** What the receiver tells besides deliveries. */
export interface ReceiverOptions {
  /** A request was refused before it was handled; `reason` is one line, ready to print. */
  onRefused?: (reason: string) => void;
  /** How long a refused sender may go on sending once its 413 is out; {@link LINGER_MS} unless set. */
  lingerMs?: number | undefined;
}

/**
 * The largest body taken as a delivery: 1 MiB, the default of the SDK's `createWebhookHandler`.
 * An emulator event is a few KB (its request bodies are at most 100 KiB), so only a body no
 * delivery can be is refused.
 */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

/**
 * The most of a refused body read and dropped while its 413 goes out (`Connection: close` ends
 * the connection once it has); a sender that does not read it is cut off there.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/** How long a refused sender gets to finish sending after its 413 before the receiver closes. */
export const LINGER_MS = 5_000;

const TOO_LARGE_BODY = '{"error":"payload_too_large"}';
const TOO_LARGE_ANSWER = [
  'HTTP/1.1 413 Payload Too Large',
  'Content-Type: application/json',
  `Content-Length: ${TOO_LARGE_BODY.length}`,
  'Connection: close',
  '',
  TOO_LARGE_BODY,
].join('\r\n');

/**
 * Starts the listener the temporary endpoint points at. `handle` returns the status to answer
 * the emulator with (the app's own status, so the emulator's retries follow the app). A body over
 * {@link MAX_DELIVERY_BYTES} is answered 413 at once with `Connection: close`, never kept nor
 * handled (see {@link answerTooLarge}).
 */
export async function startReceiver(
  options: ReceiverOptions,
  handle: (delivery: ReceivedDelivery) => Promise<number>,
): Promise<Receiver> {
  const server = createServer(async (request, response) => {
    // A request sent behind a refused body on its connection is never handled: that connection
    // only closes (its answer could not go out after the 413 anyway).
    if (refusedConnections.has(request.socket)) return void request.resume();
    try {
      const body = await readDelivery(request);
      if (body === undefined) {
        answerTooLarge(request, options.lingerMs ?? LINGER_MS);
        options.onRefused?.(
          'Refused a request of more than 1 MiB to the listener (413): no delivery is that large',
        );
        return;
      }
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

/** Connections that got a 413 and are closing (see {@link answerTooLarge}). */
const refusedConnections = new WeakSet<Socket>();

/**
 * Answers 413 and closes the connection the way nginx's lingering close does: the answer, then a
 * half-close, then the rest of the body read and dropped (by {@link readDelivery}, a Node request
 * stream is never cancelled mid-read) until it ends, {@link DISCARD_LIMIT_BYTES} are dropped or
 * `lingerMs` passes; only then is the socket destroyed. Node's own answer with `Connection: close`
 * destroys the socket as soon as it is written, while the sender's bytes are still unread in the
 * kernel: the kernel then resets the connection, and a sender still writing saw EPIPE and never
 * read its 413 (6 runs in 20 of a 300 MB POST on a loaded machine). So the receiver writes this
 * answer on the socket itself and owns the close; the `ServerResponse` is left unused.
 */
function answerTooLarge(request: IncomingMessage, lingerMs: number): void {
  const { socket } = request;
  refusedConnections.add(socket);
  socket.end(TOO_LARGE_ANSWER);
  // Destroyed only once the answer has left: destroy() drops what is still buffered.
  const close = () =>
    socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy());
  const lingering = setTimeout(close, lingerMs).unref();
  socket.once('close', () => clearTimeout(lingering));
  // Every byte of the body was read: closing now sends no reset.
  if (request.readableEnded) close();
  else request.once('end', close);
}

/**
 * The body, or `undefined` as soon as it is known to be over {@link MAX_DELIVERY_BYTES} (declared
 * or counted). From then on its chunks are counted and dropped as they come.
 */
function readDelivery(request: IncomingMessage): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = () => {
      refused = true;
      chunks.length = 0;
      resolve(undefined);
    };
    if (Number(request.headers['content-length']) > MAX_DELIVERY_BYTES) refuse();
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refused) {
        if (size > DISCARD_LIMIT_BYTES && !request.destroyed) request.destroy();
        return;
      }
      if (size > MAX_DELIVERY_BYTES) refuse();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      if (!refused) resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    // A sender gone before the end: nothing to handle (settled promises ignore both).
    request.on('error', reject);
    request.on('close', () => reject(new Error('the sender closed the connection')));
  });
}
