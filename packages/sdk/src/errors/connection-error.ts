import { brandError, ParleyError } from './parley-error';

/** No answer: DNS, refused connection, TLS, reset. `cause` holds the underlying error. */
export class ConnectionError extends ParleyError {}

/** True for a {@link ConnectionError} (including {@link TimeoutError}). */
export const isConnectionError = brandError(ConnectionError, 'ConnectionError');

/** An attempt took longer than the `timeout` option (after retries). `cause` holds the attempt's failure. */
export class TimeoutError extends ConnectionError {}

/** True for a {@link TimeoutError}. */
export const isTimeoutError = brandError(TimeoutError, 'TimeoutError');
