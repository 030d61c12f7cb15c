import { H3, type HTTPError } from 'h3';
import { faviconResponse } from '../console/console-favicon';
import type { EmulatorControl } from '../core/control';
import type { EmulatorCore } from '../core/emulator-core';
import { DomainError } from '../domain/domain-error';
import { newRequestId } from '../domain/ids';
import { errorResponse } from './_respond';
import { registerControlRoutes } from './control-routes';
import { registerExportRoutes } from './export-routes';
import { registerStreamRoutes } from './stream-routes';
import { registerV1Routes } from './v1-routes';

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  renderConsole: () => Promise<{ html: string; headers: Record<string, string> }>;
}

/**
 * The whole emulator as one web-standard h3 app: `/v1`, `/_emulator`, the console at `/`.
 * Every error, including unknown paths and unexpected exceptions, leaves as the spec's JSON
 * error body; an unexpected one is a 500 `internal_error` that hides its internals.
 */
export function createHttpApp(core: EmulatorCore, control: EmulatorControl, options: HttpAppOptions): H3 {
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
  app.get('/', async () => {
    const { html, headers } = await options.renderConsole();
    return new Response(html, { headers: { ...headers, 'x-request-id': newRequestId() } });
  });
  app.get('/favicon.ico', faviconResponse);
  registerV1Routes(app, core);
  registerControlRoutes(app, core, control);
  registerExportRoutes(app, core, control);
  registerStreamRoutes(app, core);
  return app;
}
