const CONTROL_ERROR = Symbol.for('parley.emulator.control-error');

/** Why an answer was not one the control API gives (see {@link ControlResponseError}). */
export type ControlResponseReason =
  /** Longer than a control answer is read to (1 MiB unless the client says less): reading stopped there. */
  | 'too_large'
  /** Not JSON (another server at that address, or a proxy's page). */
  | 'not_json'
  /** An error status without the spec's error body. */
  | 'no_error_body'
  /** The body's read failed part way (a reset, the client's timeout). */
  | 'unreadable';

/**
 * The emulator refused a control call: the spec's error body (`status`, `code`, `message`,
 * `details`, `requestId`), the same fields an in-process call's error carries.
 *
 * @example
 * try { await control.getChaos(id); } catch (error) { if (isEmulatorControlError(error) && error.code === 'not_found') … }
 */
export class EmulatorControlError extends Error {
  override readonly name = 'EmulatorControlError';
  /** The marker the guards check, on the prototype: it works across copies of this package. */
  get [CONTROL_ERROR](): true {
    return true;
  }

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The answer of `url` was no control-API answer (`reason`): the server there is probably not the
 * emulator. `status` is the HTTP status it answered with.
 */
export class ControlResponseError extends Error {
  override readonly name = 'ControlResponseError';
  /** The marker the guards check, on the prototype: it works across copies of this package. */
  get [CONTROL_ERROR](): true {
    return true;
  }

  constructor(
    readonly reason: ControlResponseReason,
    readonly status: number,
    readonly url: string,
    options: { cause?: unknown; limit?: number } = {},
  ) {
    super(responseMessage(reason, status, url, options.limit ?? 1024 * 1024), { cause: options.cause });
  }
}

/** Whether `error` is the emulator's refusal of a control call, also across copies of this package. */
export function isEmulatorControlError(error: unknown): error is EmulatorControlError {
  return error instanceof Error && error.name === 'EmulatorControlError' && CONTROL_ERROR in error;
}

/** Whether `error` says an answer was no control-API answer, also across copies of this package. */
export function isControlResponseError(error: unknown): error is ControlResponseError {
  return error instanceof Error && error.name === 'ControlResponseError' && CONTROL_ERROR in error;
}

function responseMessage(reason: ControlResponseReason, status: number, url: string, limit: number): string {
  switch (reason) {
    case 'too_large':
      return `${url} answered with more than ${sizeText(limit)}, which no control answer is: reading stopped there`;
    case 'not_json':
      return `${url} answered HTTP ${status} with a body that is not JSON: is the emulator there?`;
    case 'no_error_body':
      return `${url} answered HTTP ${status} without an error body: is the emulator there?`;
    case 'unreadable':
      return `${url} answered HTTP ${status}, but its body could not be read to its end`;
  }
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
