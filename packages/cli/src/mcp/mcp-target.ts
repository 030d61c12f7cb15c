import {
  createControlClient,
  type EmulatorControl,
  isControlResponseError,
  isEmulatorControlError,
} from '@parley/emulator/control';
import { type Logger, type LogLevel, Parley } from '@parley/sdk';
import { type ClientOptions, type Credentials, resolveCredentials } from '../config/resolve-credentials';
import type { CommandContext } from '../context';
import { EXIT, ExitError } from '../exit-error';

/** What `parley mcp` talks to: the API through the SDK and, on an emulator, its control API. */
export interface McpTarget {
  client: Parley;
  credentials: Credentials;
  /** The control API at the base URL's origin (only an emulator answers it). */
  control: EmulatorControl;
  origin: string;
  /** The emulator tools are offered: the origin answered as an emulator, or is loopback with nothing there yet. */
  emulator: boolean;
  /** The network, as the SDK and the control client use it (tests: an in-process emulator). */
  fetch: (request: Request) => Promise<Response>;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

/** `parley mcp` flags. */
export interface McpOptions extends ClientOptions {
  /** Serve a live key (refused otherwise: an agent should not send real messages unasked). */
  allowLive?: boolean;
}

// A control call may not hang a tool; an advance runs every job that falls due.
const CONTROL_TIMEOUT_MS = 10_000;
const ADVANCE_TIMEOUT_MS = 120_000;
const PROBE_TIMEOUT_MS = 1_500;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Resolves the key, base URL and profile as every command does (flag > env > profile, else the
 * emulator on 127.0.0.1:4010), refuses a
 * live key without `--allow-live`, and builds the SDK client and the control client. The SDK
 * logs to stderr: stdout carries the protocol alone.
 */
export async function openMcpTarget(options: McpOptions, context: CommandContext): Promise<McpTarget> {
  // With nothing set, an emulator answering on 127.0.0.1:4010 gives both (as for every API command).
  const credentials = await resolveCredentials(
    options,
    context.env,
    context.fetch ? { fetch: context.fetch } : {},
  );
  if (credentials.apiKey.startsWith('prl_live_') && !options.allowLive) {
    throw new ExitError(
      EXIT.config,
      `the API key from ${credentials.apiKeySource} is a live key: parley mcp serves sandbox keys only, so an agent cannot send real messages. Pass --allow-live to serve it anyway`,
    );
  }
  if (!URL.canParse(credentials.baseUrl)) {
    throw new ExitError(
      EXIT.config,
      `the base URL "${credentials.baseUrl}" (from ${credentials.baseUrlSource}) is not a URL`,
    );
  }
  const fetchFunction = context.fetch ?? ((request: Request) => fetch(request));
  const write = (line: string) => context.stderr.write(`${line}\n`);
  const client = new Parley({
    apiKey: credentials.apiKey,
    baseUrl: credentials.baseUrl,
    logLevel: context.verbose ? 'debug' : (context.env.PARLEY_LOG as LogLevel | undefined) || 'warn',
    logger: { error: write, warn: write, info: write, debug: write } satisfies Logger,
    fetch: (input: string | URL | Request, init?: RequestInit) => fetchFunction(new Request(input, init)),
  });
  const origin = new URL(credentials.baseUrl).origin;
  const control = createControlClient({
    baseUrl: origin,
    fetch: fetchFunction,
    timeoutMs: CONTROL_TIMEOUT_MS,
    advanceTimeoutMs: ADVANCE_TIMEOUT_MS,
    signal: context.signal,
  });
  // Nothing listening on loopback yet is the emulator the developer has still to start.
  const found = await probe(origin, fetchFunction);
  const emulator = found === 'emulator' || (found === 'nothing' && LOOPBACK.has(new URL(origin).hostname));
  return {
    client,
    credentials,
    control,
    origin,
    emulator,
    fetch: fetchFunction,
    env: context.env,
    signal: context.signal,
  };
}

/**
 * What answers `GET /_emulator/clock` there: a clock (the emulator; a real API has no such route),
 * something else, or nothing (no server yet). Bounded (64 KiB, 1.5 s); never throws.
 */
async function probe(
  origin: string,
  fetchFunction: McpTarget['fetch'],
): Promise<'emulator' | 'other' | 'nothing'> {
  const client = createControlClient({
    baseUrl: origin,
    fetch: fetchFunction,
    timeoutMs: PROBE_TIMEOUT_MS,
    maxAnswerBytes: 64 * 1024,
  });
  return client.getClock().then(
    (clock) => (typeof clock?.now === 'string' ? 'emulator' : 'other'),
    (error: unknown) =>
      isEmulatorControlError(error) ? 'emulator' : isControlResponseError(error) ? 'other' : 'nothing',
  );
}
