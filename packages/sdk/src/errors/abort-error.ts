import { brandError, ParleyError } from './parley-error';

/**
 * The caller's `AbortSignal` fired: the SDK stopped at once, mid-request or mid-wait, and does
 * not retry. `cause` is the signal's `reason` (a DOMException `AbortError` unless the caller
 * passed a reason to `abort()`).
 *
 * @example
 * try { await parley.messages.waitFor(id, { until: 'delivered', signal }) }
 * catch (error) { if (isAPIUserAbortError(error)) console.log('stopped:', error.cause) }
 */
export class APIUserAbortError extends ParleyError {
  constructor(reason: unknown) {
    super('The operation was aborted by its signal', { cause: reason });
  }
}

/** True for an {@link APIUserAbortError}, also from another copy of the package. */
export const isAPIUserAbortError = brandError(APIUserAbortError, 'APIUserAbortError');
