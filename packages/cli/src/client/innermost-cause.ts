/**
 * What a network failure comes down to. fetch wraps the socket error in a `TypeError`, and
 * ofetch and the SDK (its attempt's `NetworkError`, then its `ConnectionError`) wrap that again: the `cause` chain is walked (at most 8 deep) to its end,
 * keeping the innermost `code` met on the way (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`)
 * and the innermost message.
 *
 * @example
 * innermostCause(await fetch('http://127.0.0.1:9').catch((error) => error)).code // 'ECONNREFUSED'
 */
export function innermostCause(error: unknown): { code: string | undefined; message: string | undefined } {
  let code: string | undefined;
  let message: string | undefined;
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const link = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof link.code === 'string') code = link.code;
    if (typeof link.message === 'string') message = link.message;
    current = link.cause;
  }
  return { code, message };
}
