import { http } from 'msw';
import type { Emulator } from './create-emulator';

/** Options of {@link createEmulatorHandlers}. */
export interface EmulatorHandlerOptions {
  /** Origin the handlers intercept (default `http://127.0.0.1:4010`); point your client at `${baseUrl}/v1`. */
  baseUrl?: string;
}

/**
 * msw handlers that answer every request under `baseUrl` from an in-process emulator, so a
 * test suite runs the SDK against the full sandbox without a port.
 *
 * @example
 * const emulator = createEmulator({ clock: 'frozen' });
 * const server = setupServer(...createEmulatorHandlers(emulator));
 */
export function createEmulatorHandlers(emulator: Emulator, options: EmulatorHandlerOptions = {}) {
  const origin = (options.baseUrl ?? 'http://127.0.0.1:4010').replace(/\/+$/, '').replace(/\/v1$/, '');
  return [
    http.all(`${origin}/*`, async ({ request }) => {
      try {
        return await emulator.fetch(request);
      } catch (error) {
        // An injected drop: msw turns Response.error() into the network error fetch rejects with.
        if (error instanceof TypeError) return Response.error();
        throw error;
      }
    }),
  ];
}
