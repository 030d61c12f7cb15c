import { vi } from 'vitest';

/**
 * Runs `action` with fake timers, moving time forward in `step` ms jumps until it settles,
 * so retry back-offs and `Retry-After` waits pass without real sleeping. Returns the
 * outcome and how much fake time passed.
 */
export async function withFakeTime<Result>(
  action: () => Promise<Result>,
  step = 100,
): Promise<{ outcome: PromiseSettledResult<Result>; elapsed: number }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const started = Date.now();
  try {
    let outcome: PromiseSettledResult<Result> | undefined;
    const running = action().then(
      (value) => {
        outcome = { status: 'fulfilled', value };
      },
      (reason: unknown) => {
        outcome = { status: 'rejected', reason };
      },
    );
    while (outcome === undefined) await vi.advanceTimersByTimeAsync(step);
    await running;
    return { outcome, elapsed: Date.now() - started };
  } finally {
    vi.useRealTimers();
  }
}

/** The rejection reason of a settled outcome; fails the test when it was fulfilled. */
export function rejectionOf(outcome: PromiseSettledResult<unknown>): unknown {
  if (outcome.status === 'fulfilled') throw new Error('expected a rejection, got a value');
  return outcome.reason;
}
