import { H3, type HTTPError } from 'h3';
import type { EmulatorControl } from '../core/control';
import type { EmulatorCore } from '../core/emulator-core';
import { DomainError } from '../domain/domain-error';
import { newRequestId } from '../domain/ids';
import { errorResponse, jsonResponse } from './_respond';
import { registerControlRoutes } from './control-routes';
import { registerV1Routes } from './v1-routes';

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  /** Refuse requests whose Host is not a loopback name (on when served over a socket). */
  hostGuard: boolean;
  renderConsole: () => Promise<string>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a Host header names a loopback host (any port): the DNS-rebinding guard (DESIGN §4). */
export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return LOOPBACK_HOSTS.has(name.toLowerCase());
}

/**
 * The whole emulator as one web-standard h3 app: `/v1`, `/_emulator`, the console at `/`.
 * Every error, including unknown paths and unexpected exceptions, leaves as the spec's JSON
 * error body; an unexpected one is a 500 `internal_error` that hides its internals.
 */
export function createHttpApp(
  getCore: () => EmulatorCore,
  control: EmulatorControl,
  options: HttpAppOptions,
): H3 {
  const app = new H3({
    silent: true,
    // Ids are matched as opaque strings, so a malformed escape is just an unknown id (404).
    allowMalformedURL: true,
    onError: (error: HTTPError) => {
      const requestId = newRequestId();
      if (error.status === 404 || error.status === 405) {
        return errorResponse(
          new DomainError('not_found', 'No such path. The API lives under /v1.'),
          requestId,
        );
      }
      if (error.status === 400) {
        return errorResponse(
          new DomainError('validation_error', 'Malformed request URL.', {
            field: 'url',
            reason: 'invalid_format',
          }),
          requestId,
        );
      }
      return errorResponse(error.cause ?? error, requestId);
    },
  });
  if (options.hostGuard) {
    app.use((event, next) => {
      if (isLoopbackHost(event.req.headers.get('host'))) return next();
      const requestId = newRequestId();
      return jsonResponse(
        403,
        {
          error: {
            code: 'host_not_allowed',
            message: 'The emulator answers only requests addressed to 127.0.0.1, localhost or [::1].',
            request_id: requestId,
          },
        },
        requestId,
      );
    });
  }
  app.get('/', async () => {
    return new Response(await options.renderConsole(), {
      headers: { 'content-type': 'text/html; charset=utf-8', 'x-request-id': newRequestId() },
    });
  });
  registerV1Routes(app, getCore);
  registerControlRoutes(app, getCore, control);
  return app;
}
