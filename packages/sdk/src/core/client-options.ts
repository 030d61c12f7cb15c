import { ConfigurationError } from '../errors/configuration-error';

/** A `fetch`-compatible function, e.g. one that hands requests to an in-process emulator. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of `new Parley(...)`. */
export interface ParleyOptions {
  /** `prl_sandbox_…` or `prl_live_…`; defaults to `PARLEY_API_KEY`. */
  apiKey?: string;
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`; defaults to `PARLEY_BASE_URL`. */
  baseUrl?: string;
  /** Per-attempt timeout in milliseconds (30 000). */
  timeout?: number;
  /** Retries after the first attempt (2). */
  maxRetries?: number;
  /** Longest `Retry-After` wait in milliseconds the SDK sits out (60 000); a longer one fails at once. */
  maxRetryAfter?: number;
  /** The fetch to use instead of the global one. */
  fetch?: FetchFunction;
}

/** Options with defaults applied and checked. */
export interface ResolvedOptions {
  apiKey: string;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  maxRetryAfter: number;
  fetch: FetchFunction | undefined;
}

const API_KEY_SHAPE = /^prl_(?:sandbox|live)_[0-9A-Za-z]{32}$/;

/** Applies env fallbacks and defaults; throws a {@link ConfigurationError} naming the option. */
export function resolveOptions(options: ParleyOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? readEnv('PARLEY_API_KEY');
  if (!apiKey) {
    throw new ConfigurationError(
      'Missing API key: pass `apiKey` to new Parley() or set the PARLEY_API_KEY environment variable',
    );
  }
  if (!API_KEY_SHAPE.test(apiKey)) {
    // The key itself is never echoed: it may be a real secret pasted in the wrong place.
    throw new ConfigurationError(
      'The API key does not look like a Parley key: expected "prl_sandbox_" or "prl_live_" followed by 32 letters or digits (check `apiKey` / PARLEY_API_KEY for quotes or whitespace)',
    );
  }
  const baseUrl = options.baseUrl ?? readEnv('PARLEY_BASE_URL');
  if (!baseUrl) {
    throw new ConfigurationError(
      "Missing base URL: pass `baseUrl` to new Parley() or set the PARLEY_BASE_URL environment variable (the emulator's is http://127.0.0.1:4010/v1)",
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(
      '`baseUrl` / PARLEY_BASE_URL is not an absolute URL, e.g. http://127.0.0.1:4010/v1',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigurationError('`baseUrl` / PARLEY_BASE_URL must be an http or https URL');
  }
  return {
    apiKey,
    baseUrl: parsed.href.replace(/\/+$/, ''),
    timeout: checkedNumber('timeout', options.timeout, 30_000, 1),
    maxRetries: checkedNumber('maxRetries', options.maxRetries, 2, 0),
    maxRetryAfter: checkedNumber('maxRetryAfter', options.maxRetryAfter, 60_000, 0),
    fetch: options.fetch,
  };
}

function checkedNumber(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new ConfigurationError(`\`${name}\` must be an integer ≥ ${minimum}`);
  }
  return value;
}

function readEnv(name: string): string | undefined {
  // `process` is absent in browsers and some edge runtimes.
  const value = globalThis.process?.env?.[name];
  return value === '' ? undefined : value;
}
