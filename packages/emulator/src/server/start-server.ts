import { assembleEmulator, type Emulator, type EmulatorOptions } from '../emulator/create-emulator';
import { guardHost } from './host-guard';

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

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
 * Starts the emulator on a real socket (listhen, bound to 127.0.0.1 by default), with the
 * DNS-rebinding guard on.
 */
export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const { port = 4010, host = '127.0.0.1', ...emulatorOptions } = options;
  // Loaded here, not at import: in-process users of @parley/emulator never pay for the server.
  const [{ listen }, { toNodeHandler }] = await Promise.all([import('listhen'), import('h3/node')]);
  const { emulator, app } = assembleEmulator(emulatorOptions);
  await emulator.ready;
  const listener = await listen(guardHost(toNodeHandler(app)), {
    // Exactly this port (a range of one): a taken one is an error, never a silent move to another.
    port:
      port === 0
        ? { port: 0, random: true, verbose: false }
        : { port, alternativePortRange: [port, port], verbose: false },
    hostname: host,
    showURL: false,
    autoClose: false,
    // listhen rewrites a non-loopback host to localhost unless told the bind is public on purpose.
    public: !LOOPBACK_BINDS.has(host),
    open: false,
    clipboard: false,
    qr: false,
  });
  const address = listener.address;
  if (port !== 0 && address.port !== port) {
    // get-port-please skips ports browsers block (e.g. 6000) and falls back to another one.
    await listener.close();
    await emulator.close();
    throw new Error(
      `port ${port} cannot be used (taken, or a port browsers block); choose another with --port`,
    );
  }
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
        await listener.close();
        await emulator.close();
      })();
      return closing;
    },
  };
}
