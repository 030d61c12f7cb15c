import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assembleEmulator, type Emulator, type EmulatorOptions } from '../create-emulator';
import { isBrowserBlockedPort } from './_browser-blocked-ports';
import { answerClientError } from './_client-error';
import { guardHost } from './host-guard';

/** Options of {@link startEmulatorServer}: where to listen plus every emulator option. */
export interface EmulatorServerOptions extends EmulatorOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
}

/** A listening emulator. */
export interface EmulatorServer {
  /** `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** The API base URL: `url` + `/v1`. */
  baseUrl: string;
  /** The web console: `url` + `/`. */
  consoleUrl: string;
  /** The control API: `url` + `/_emulator`. */
  controlUrl: string;
  sandboxKey: string;
  emulator: Emulator;
  /** Stops listening, then persists and closes the emulator. */
  close(): Promise<void>;
}

/**
 * Starts the emulator on a real socket (Node's `http` server, bound to 127.0.0.1 by default),
 * with the DNS-rebinding guard on and Node's own parser errors answered in the spec's format.
 *
 * Served by `node:http` directly rather than listhen: listhen's shutdown wrapper crashed the
 * process when a request stream ended early (a 413 on a chunked body), and everything else it
 * adds (tunnels, QR codes, port hunting) is not wanted here.
 */
export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const { port = 4010, host: requestedHost = '127.0.0.1', ...emulatorOptions } = options;
  const host = requestedHost.replace(/^\[|\]$/g, ''); // `--host [::1]` as a URL writes it
  if (isBrowserBlockedPort(port)) {
    throw new Error(`port ${port} cannot be used: browsers refuse to open it; choose another with --port`);
  }
  // Loaded here, not at import: in-process users of @parley/emulator never pay for the server.
  const [{ createServer }, { toNodeHandler }] = await Promise.all([import('node:http'), import('h3/node')]);
  const { emulator, app } = assembleEmulator(emulatorOptions);
  await emulator.ready;
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      // Slow clients (slowloris) cannot hold a socket open forever.
      headersTimeout: 20_000,
      requestTimeout: 60_000,
    },
    guardHost(toNodeHandler(app)),
  );
  server.on('clientError', answerClientError);
  try {
    await listenOn(server, port, host);
  } catch (error) {
    await emulator.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`port ${port} cannot be used: it is taken; choose another with --port`);
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/v1`,
    consoleUrl: `${url}/`,
    controlUrl: `${url}/_emulator`,
    sandboxKey: emulator.sandboxKey,
    emulator,
    close: () => {
      closing ??= (async () => {
        await stopListening(server);
        await emulator.close();
      })();
      return closing;
    },
  };
}

/** Headers larger than this are answered 431 `headers_too_large` (Node's default, said out loud). */
const MAX_HEADER_BYTES = 16 * 1024;

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

// Idle keep-alive sockets close at once; a request in flight gets a moment to finish.
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), 1_000);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
