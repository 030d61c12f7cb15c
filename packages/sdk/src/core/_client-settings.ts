import { ConfigurationError } from '../errors/configuration-error';
import { type ParleyOptions, type ResolvedOptions, readEnv, resolveOptions } from './client-options';
import { LOG_LEVELS, type Logger, type LogLevel } from './logger';
import type { TelemetryOptions } from './open-telemetry';
import type { RequestHooks } from './request-hooks';
import type { RequestHeaders } from './request-options';

/** Every option of a client with its default applied: what its HTTP layer runs on. */
export interface ClientSettings extends ResolvedOptions, RequestHooks, TelemetryOptions {
  /** A copy of the caller's, so changing their object later changes no client. */
  defaultHeaders: RequestHeaders;
  logLevel: LogLevel;
  logger: Logger;
}

/** {@link resolveOptions} plus headers, logging and hooks; throws a {@link ConfigurationError}. */
export function resolveSettings(options: ParleyOptions): ClientSettings {
  const logLevel = options.logLevel ?? readEnv('PARLEY_LOG') ?? 'warn';
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigurationError(`\`logLevel\` / PARLEY_LOG must be one of ${LOG_LEVELS.join(' ')}`);
  }
  return {
    ...options,
    ...resolveOptions(options),
    defaultHeaders: { ...options.defaultHeaders },
    logLevel: logLevel as LogLevel,
    logger: options.logger ?? console,
  };
}
