import type { IncomingMessage, ServerResponse } from 'node:http';
import { EMULATOR_ERROR_STATUS } from '../domain/error-codes';
import { newRequestId } from '../domain/ids';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The last Host header found loopback: clients send the same one on every call, and comparing it
 * costs less than splitting and lowering it again (~2 % of the CPU of a `POST /v1/messages`, issue 23).
 */
let lastLoopbackHost: string | undefined;

/** Whether a Host header names a loopback host (any port): the DNS-rebinding guard (DESIGN §4). */
export function isLoopbackHost(host: string | undefined | null): boolean {
  if (!host) return false;
  if (host === lastLoopbackHost) return true;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  const loopback = LOOPBACK_HOSTS.has(name.toLowerCase());
  if (loopback) lastLoopbackHost = host;
  return loopback;
}

/**
 * Wraps the Node handler of the served app: a request whose Host is not a loopback name gets
 * 403 `host_not_allowed` before h3 sees it, on every path. A page on another site that
 * re-points its own DNS name at 127.0.0.1 sends its own name as Host, so it cannot read or
 * change the emulator. Checked at the socket, not as h3 middleware: no cost on the hot path.
 */
export function guardHost(
  handler: (request: IncomingMessage, response: ServerResponse) => unknown,
): (request: IncomingMessage, response: ServerResponse) => unknown {
  return (request, response) => {
    if (isLoopbackHost(request.headers.host)) return handler(request, response);
    const requestId = newRequestId();
    const body = JSON.stringify({
      error: {
        code: 'host_not_allowed',
        message: 'The emulator answers only requests addressed to 127.0.0.1, localhost or [::1].',
        request_id: requestId,
        details: {},
      },
    });
    request.resume();
    response
      .writeHead(EMULATOR_ERROR_STATUS.host_not_allowed, {
        'content-type': 'application/json',
        'x-request-id': requestId,
      })
      .end(body);
    return undefined;
  };
}
