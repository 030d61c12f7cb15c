import { APIUserAbortError } from '../errors/abort-error';

/** Throws {@link APIUserAbortError} when `signal` has already fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new APIUserAbortError(signal.reason);
}

/**
 * Settles like `work`, or rejects with {@link APIUserAbortError} the moment `signal` fires,
 * whatever `work` is doing then: a fetch that ignores its signal must not hold the caller.
 */
export function abortable<Value>(work: PromiseLike<Value>, signal: AbortSignal | undefined): Promise<Value> {
  return new Promise<Value>((resolve, reject) => {
    const onAbort = () => reject(new APIUserAbortError(signal?.reason));
    if (signal?.aborted) onAbort();
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the finally below removes it too
    signal?.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work)
      .then(resolve, reject)
      .finally(() => signal?.removeEventListener('abort', onAbort));
  });
}

/** Waits `milliseconds`, or rejects with {@link APIUserAbortError} at once when `signal` fires. */
export function abortableSleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sleeping = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  return abortable(sleeping, signal).finally(() => clearTimeout(timer));
}
