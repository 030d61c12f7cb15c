/**
 * How much the SDK logs, from nothing to everything; each level includes the ones before it.
 * `error`: a hook threw. `warn`, the default, adds nothing yet: calls report through their
 * results and errors. `info`: one line per call (its last attempt). `debug`: one line per
 * attempt, a retried one with its reason (`error`) and the wait (`delayMs`).
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** The levels in order; a line is written when its level's index ≤ the configured one's. */
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/**
 * Where log lines go: `console` (the default), a pino or winston logger, or any object with
 * these four methods. Each line is one string; it never holds the API key or a body.
 *
 * @example
 * const parley = new Parley({ logLevel: 'info', logger: pino() });
 */
export interface Logger {
  error(message: string): unknown;
  warn(message: string): unknown;
  info(message: string): unknown;
  debug(message: string): unknown;
}
