/**
 * Exit codes of `parley`, documented in `parley --help` and docs/cli.md.
 * 130 (interrupted) follows the shell convention for Ctrl-C.
 */
export const EXIT = {
  ok: 0,
  api: 1,
  usage: 2,
  config: 3,
  interrupted: 130,
} as const;

/** One of the {@link EXIT} codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error body in the spec's format (spec 7), printed on stdout under `--json`. */
export interface ErrorOutput {
  error: { code: string; message: string; request_id: string | null; details?: Record<string, unknown> };
}

/**
 * The one error a command throws to end the process: an exit code and a one-line message that
 * says what happened and what to do. `body` is what `--json` prints on stdout.
 *
 * @example
 * throw new ExitError(EXIT.usage, 'missing --to: pass the recipient, e.g. --to +33612345678');
 */
export class ExitError extends Error {
  readonly code: ExitCode;
  readonly body: ErrorOutput;

  constructor(code: ExitCode, message: string, body?: ErrorOutput) {
    super(message);
    this.name = 'ExitError';
    this.code = code;
    this.body = body ?? { error: { code: LOCAL_ERROR_CODES[code], message, request_id: null } };
  }
}

/** Codes of errors the CLI raises itself, so `--json` errors always carry a code. */
const LOCAL_ERROR_CODES: Record<ExitCode, string> = {
  0: 'ok',
  1: 'failed',
  2: 'usage_error',
  3: 'config_error',
  130: 'interrupted',
};

/** Shorthand for a usage error (exit 2): a missing or wrong argument. */
export function usageError(message: string): ExitError {
  return new ExitError(EXIT.usage, message);
}

/** True for an {@link ExitError}, also from another chunk of the bundle. */
export function isExitError(value: unknown): value is ExitError {
  return value instanceof Error && value.name === 'ExitError' && 'code' in value && 'body' in value;
}
