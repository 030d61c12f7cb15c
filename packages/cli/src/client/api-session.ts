import { Parley } from '@parley/sdk';
import { type ClientOptions, type Credentials, resolveCredentials } from '../config/resolve-credentials';
import type { CommandContext } from '../context';
import { apiErrorToExit } from './api-error-to-exit';

/** A client with the credentials it was built from, for calls whose errors name their source. */
export interface ApiSession {
  client: Parley;
  credentials: Credentials;
  /** Runs one or more SDK calls; any SDK error becomes an ExitError with a one-line explanation. */
  call<Result>(work: (client: Parley) => Promise<Result>): Promise<Result>;
}

/**
 * Resolves credentials (flag > env > profile) and builds the SDK client. Every API command goes
 * through this, so errors read the same everywhere. A 429 is reported at once with its wait
 * (`maxRetryAfter: 0`): a terminal user learns when to retry instead of watching a silent pause.
 */
export async function openApiSession(options: ClientOptions, context: CommandContext): Promise<ApiSession> {
  const credentials = await resolveCredentials(options, context.env);
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
      ...(context.fetch ? { fetch: requestFetch(context.fetch) } : {}),
    });
  } catch (error) {
    throw apiErrorToExit(error, credentials);
  }
  return { client, credentials, call };
}

function requestFetch(handle: (request: Request) => Promise<Response>) {
  return (input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init));
}
