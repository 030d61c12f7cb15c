import { ConfigurationError } from '../errors/configuration-error';
import type { Logger, LogLevel } from './logger';
import type { TelemetryOptions } from './open-telemetry';
import type { RequestHooks } from './request-hooks';
import type { RequestHeaders } from './request-options';

/** A `fetch`-compatible function, e.g. one that hands requests to an in-process emulator. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Options of `new Parley(...)` and `parley.withOptions(...)`; hooks: {@link RequestHooks};
 * OpenTelemetry `tracer` and `meter`: {@link TelemetryOptions}.
 */
export interface ParleyOptions extends RequestHooks, TelemetryOptions {
  /** `prl_sandbox_…` or `prl_live_…`; defaults to `PARLEY_API_KEY`. */
  apiKey?: string | undefined;
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`; defaults to `PARLEY_BASE_URL`. */
  baseUrl?: string | undefined;
  /** Per-attempt timeout in milliseconds (30 000). */
  timeout?: number | undefined;
  /** Retries after the first attempt (2). */
  maxRetries?: number | undefined;
  /** Longest `Retry-After` wait in milliseconds the SDK sits out (60 000); a longer one fails at once. */
  maxRetryAfter?: number | undefined;
  /** The fetch to use instead of the global one. */
  fetch?: FetchFunction | undefined;
  /** Headers sent with every call, over the SDK's own; `null` removes one (never `Authorization`). */
  defaultHeaders?: RequestHeaders | undefined;
  /** How much to log (`PARLEY_LOG`, else `warn`); see {@link LogLevel}. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go (`console`): pino, winston or anything with `error`/`warn`/`info`/`debug`. */
  logger?: Logger | undefined;
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

/** Applies env fallbacks and defaults; throws a {@link ConfigurationError} naming the option. */
export function resolveOptions(options: ParleyOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? readEnv('PARLEY_API_KEY');
  const baseUrl = options.baseUrl ?? readEnv('PARLEY_BASE_URL');
  if (!apiKey) throw new ConfigurationError('Missing API key: pass `apiKey` or set PARLEY_API_KEY');
  // The key itself is never echoed: it may be a real secret pasted in the wrong place.
  if (!/^prl_(sandbox|live)_[\dA-Za-z]{32}$/.test(apiKey)) {
    throw new ConfigurationError(
      '`apiKey` / PARLEY_API_KEY is not a Parley key: expected prl_sandbox_ or prl_live_ and 32 letters or digits',
    );
  }
  if (!baseUrl) {
    throw new ConfigurationError(
      'Missing base URL: pass `baseUrl` or set PARLEY_BASE_URL (the emulator: http://127.0.0.1:4010/v1)',
    );
  }
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new ConfigurationError('`baseUrl` / PARLEY_BASE_URL must be an absolute http(s) URL');
  }
  return {
    apiKey,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...resolveLimits(options),
    fetch: options.fetch,
  };
}

/**
 * `timeout`, `maxRetries` and `maxRetryAfter` with their defaults, checked: the client's, and each
 * call's own over them, by the same rules.
 */
export function resolveLimits(options: Pick<ParleyOptions, 'timeout' | 'maxRetries' | 'maxRetryAfter'>) {
  const integer = (name: keyof typeof options, fallback: number, minimum = 0) => {
    const value = options[name] ?? fallback;
    if (!Number.isInteger(value) || value < minimum) {
      throw new ConfigurationError(`\`${name}\` must be an integer ≥ ${minimum}`);
    }
    return value;
  };
  return {
    timeout: integer('timeout', 30_000, 1),
    maxRetries: integer('maxRetries', 2),
    maxRetryAfter: integer('maxRetryAfter', 60_000),
  };
}

/** An environment variable, an empty one counting as unset. */
export function readEnv(name: string): string | undefined {
  // `process` is absent in browsers and some edge runtimes.
  return globalThis.process?.env?.[name] || undefined;
}
