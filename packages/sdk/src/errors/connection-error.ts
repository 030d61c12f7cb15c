import { isErrorOfKind, markErrorKind, ParleyError } from './parley-error';

/** No answer: DNS, refused connection, TLS, reset. `cause` holds the underlying error. */
export class ConnectionError extends ParleyError {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    markErrorKind(this, 'ConnectionError');
  }
}

/** An attempt took longer than the `timeout` option (after retries). `cause` holds ky's error. */
export class TimeoutError extends ConnectionError {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    markErrorKind(this, 'TimeoutError');
  }
}

/** True for a {@link ConnectionError} (including {@link TimeoutError}). */
export const isConnectionError = (value: unknown): value is ConnectionError =>
  isErrorOfKind(value, 'ConnectionError');
/** True for a {@link TimeoutError}. */
export const isTimeoutError = (value: unknown): value is TimeoutError => isErrorOfKind(value, 'TimeoutError');
