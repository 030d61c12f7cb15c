import { isConfigurationError, type Logger, type LogLevel, Parley } from '@parley/sdk';
import { type ClientOptions, type Credentials, resolveCredentials } from '../config/resolve-credentials';
import type { CommandContext } from '../context';
import { EXIT, ExitError } from '../exit-error';
import { terminalSafe } from '../output/terminal-safe';
import { apiErrorToExit } from './api-error-to-exit';

/** A client with the credentials it was built from, for calls whose errors name their source. */
export interface ApiSession {
  client: Parley;
  credentials: Credentials;
  /** Runs one or more SDK calls; any SDK error becomes an ExitError with a one-line explanation. */
  call<Result>(work: (client: Parley) => Promise<Result>): Promise<Result>;
}

/**
 * Resolves credentials (flag > env > profile, else an emulator on 127.0.0.1:4010) and builds the SDK client. Every API command goes
 * through this, so errors read the same everywhere. A 429 is reported at once with its wait
 * (`maxRetryAfter: 0`): a terminal user learns when to retry instead of watching a silent pause.
 * The SDK's log (`--verbose` = debug, else PARLEY_LOG) goes to stderr, so stdout keeps only data.
 */
export async function openApiSession(options: ClientOptions, context: CommandContext): Promise<ApiSession> {
  const credentials = await resolveCredentials(
    options,
    context.env,
    context.fetch ? { fetch: context.fetch } : {},
  );
  // stderr, so `--json` keeps stdout for data; once, as each command opens one session.
  if (credentials.localEmulator)
    context.stderr.write(`using the local emulator at ${credentials.localEmulator}\n`);
  const call = async <Result>(work: (client: Parley) => Promise<Result>): Promise<Result> => {
    try {
      return await work(client);
    } catch (error) {
      throw apiErrorToExit(error, credentials);
    }
  };
  let client: Parley;
  try {
    client = new Parley({
      apiKey: credentials.apiKey,
      baseUrl: credentials.baseUrl,
      maxRetryAfter: 0,
      logLevel: context.verbose ? 'debug' : (context.env.PARLEY_LOG as LogLevel | undefined) || 'warn',
      logger: stderrLogger(context),
      ...(context.fetch ? { fetch: requestFetch(context.fetch) } : {}),
    });
  } catch (error) {
    // A bad PARLEY_LOG is not the key's or the base URL's fault: say it as the SDK does.
    if (isConfigurationError(error) && error.message.includes('PARLEY_LOG')) {
      throw new ExitError(EXIT.config, error.message);
    }
    throw apiErrorToExit(error, credentials);
  }
  return { client, credentials, call };
}

function stderrLogger({ stderr }: CommandContext): Logger {
  // A line quotes the server's request id and error code.
  const write = (line: string) => stderr.write(`${terminalSafe(line)}\n`);
  return { error: write, warn: write, info: write, debug: write };
}

function requestFetch(handle: (request: Request) => Promise<Response>) {
  return (input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init));
}
