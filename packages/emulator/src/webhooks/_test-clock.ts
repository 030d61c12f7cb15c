import type { Clock, ScheduledJob, Scheduler } from '../clock/clock-types';

/**
 * A frozen clock and scheduler for this folder's tests (the emulator's own clock lives in
 * `src/clock/`): time moves only on `advance`, which runs due jobs in time order.
 */
export function createTestClock(start = Date.parse('2026-11-01T09:00:00Z')): {
  clock: Clock;
  scheduler: Scheduler;
} {
  let now = start;
  let sequence = 0;
  const jobs = new Map<number, { at: number; order: number; job: () => void | Promise<void> }>();
  const scheduler: Scheduler = {
    schedule(at, job) {
      const order = sequence++;
      jobs.set(order, { at, order, job });
      const handle: ScheduledJob = { cancel: () => void jobs.delete(order) };
      return handle;
    },
  };
  const clock: Clock = {
    mode: 'frozen',
    now: () => now,
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...jobs.values()]
          .filter((entry) => entry.at <= target)
          .sort((a, b) => a.at - b.at || a.order - b.order)[0];
        if (!due) break;
        jobs.delete(due.order);
        now = Math.max(now, due.at);
        await due.job();
      }
      now = target;
    },
  };
  return { clock, scheduler };
}
