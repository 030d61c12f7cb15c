import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A proxy in front of a real API that can fail the next send once. */
export interface FailingProxy {
  /** The proxy's `/v1` base URL. */
  baseUrl: string;
  /** The request id of the 503 the proxy answers. */
  requestId: string;
  /** Answers the next `POST /v1/messages` with a 503 `internal_error` and `Retry-After: 0`. */
  failNextSend(): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 that forwards every request to `origin`, except a send it was told to fail. */
export async function startFailingProxy(origin: string): Promise<FailingProxy> {
  const requestId = `req_${'0'.repeat(31)}1`;
  let failNext = false;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (failNext && request.method === 'POST' && request.url === '/v1/messages') {
      failNext = false;
      response.writeHead(503, {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'retry-after': '0',
      });
      response.end(
        JSON.stringify({ error: { code: 'internal_error', message: 'Try again', request_id: requestId } }),
      );
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
        headers.set(name, value);
      }
    }
    const answer = await fetch(`${origin}${request.url}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requestId,
    failNextSend: () => {
      failNext = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
