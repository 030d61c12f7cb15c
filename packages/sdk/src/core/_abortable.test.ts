import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../errors/abort-error';
import { abortable, abortableSleep, throwIfAborted } from './_abortable';

afterEach(() => {
  vi.useRealTimers();
});

async function rejection(promise: Promise<unknown>): Promise<APIUserAbortError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(Object.getPrototypeOf(error)).toBe(APIUserAbortError.prototype);
  return error as APIUserAbortError;
}

describe('abortable', () => {
  it('settles like the work, and leaves no listener on a long-lived signal', async () => {
    const controller = new AbortController();
    expect(await abortable(Promise.resolve(42), controller.signal)).toBe(42);
    await expect(abortable(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once with the reason as cause when the signal fires, whatever the work does', async () => {
    const controller = new AbortController();
    const waiting = abortable(new Promise(() => {}), controller.signal);
    controller.abort('stop');
    expect((await rejection(waiting)).cause).toBe('stop');
  });

  it('rejects before starting when the signal already fired, and passes work through without one', async () => {
    expect((await rejection(abortable(Promise.resolve(1), AbortSignal.abort('early')))).cause).toBe('early');
    expect(await abortable(Promise.resolve(1), undefined)).toBe(1);
  });
});

describe('abortableSleep', () => {
  it('waits the time, and an abort clears its timer', async () => {
    vi.useFakeTimers();
    const slept = vi.fn();
    void abortableSleep(1_000, undefined).then(slept);
    await vi.advanceTimersByTimeAsync(999);
    expect(slept).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(slept).toHaveBeenCalledOnce();

    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await rejection(sleeping);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('throwIfAborted', () => {
  it('throws only for a fired signal', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(() => throwIfAborted(AbortSignal.abort('why'))).toThrow(APIUserAbortError);
  });
});
