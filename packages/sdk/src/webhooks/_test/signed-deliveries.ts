import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_SECRET } from '@parley/test-utils';
import { afterEach } from 'vitest';
import { signWebhook } from '../sign-webhook';

// Signed deliveries of any body, for the receiver's tests of events that are signed but not
// what Parley sends: the envelope test-utils builds would make them well-formed.

/** The body and signed headers of a delivery whose event id is `id`, timestamped now. */
export async function signedBody(body: string, id: string): Promise<{ body: string; headers: Headers }> {
  const signed = await signWebhook({ payload: body, secret: TEST_SECRET, id });
  return { body, headers: new Headers({ 'content-type': 'application/json', ...signed }) };
}

/** A signed web-standard POST of `body` with event id `id`. */
export async function signedRequest(body: string, id: string): Promise<Request> {
  return new Request('http://127.0.0.1/webhooks/parley', { method: 'POST', ...(await signedBody(body, id)) });
}

/** A signed POST of `body` with event id `id` to `url`, over a real socket. */
export async function signedPost(url: string, body: string, id: string): Promise<Response> {
  return fetch(url, { method: 'POST', ...(await signedBody(body, id)) });
}

/** Serves listeners on loopback ports, each closed after its test. */
export function useLoopbackServers(): (listener: RequestListener) => Promise<string> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  return async (listener) => {
    const server = createServer(listener);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`;
  };
}
