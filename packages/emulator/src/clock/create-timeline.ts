import { JobQueue, type QueuedJob } from './_job-queue';
import type { Clock, ClockMode, ScheduledJob, Scheduler } from './clock-types';

/** The clock and the scheduler of one emulator, sharing one notion of "now". */
export interface Timeline {
  clock: Clock;
  scheduler: Scheduler;
  /** Milliseconds the clock has been moved ahead of the wall clock (`real`) or its current time (`frozen`). */
  snapshot(): { mode: ClockMode; offsetMs: number; frozenAt: number };
  /** Cancels every job (reset) without touching the time. */
  clearJobs(): void;
  /**
   * Sets the time (an import): a frozen clock stands at `ms`, a real one runs on from it. Jobs
   * already queued are not run by the jump: clear them first.
   */
  jumpTo(ms: number): void;
  /** Stops the wall-clock timer; pending jobs stay queued but never run. */
  stop(): void;
}

/** Options of {@link createTimeline}. */
export interface TimelineOptions {
  mode: ClockMode;
  /** Start time in ms (frozen) or the start of the offset (real); default: the wall clock. */
  now?: number;
  /** Offset restored from a snapshot (real mode). */
  offsetMs?: number;
  /**
   * The latest time the clock may show (default: the last millisecond a `Date` can hold): an
   * advance that would pass it rejects with a `RangeError` and moves nothing, and a real clock
   * that reaches it stays there.
   */
  latest?: number;
}

// The last millisecond a Date can hold (ECMA-262 time values): past it, toISOString throws.
const DATE_LIMIT_MS = 8.64e15;

// setTimeout takes at most a signed 32-bit delay.
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * Creates the one clock + scheduler. `frozen` time moves only through `advance` (jobs already due
 * still run at once); `real` follows the wall clock plus the total advanced, and runs jobs from a
 * single unref'd timer. `advance` first lets the jobs that timer started finish, then runs every job
 * due within the window in time order, awaiting each instant's asynchronous jobs before the next
 * (jobs due at the same instant run together, so deliveries to different endpoints stay parallel),
 * including jobs that those jobs schedule. The timer runs nothing while an advance does, and never
 * waits for a job.
 */
export function createTimeline(options: TimelineOptions): Timeline {
  const mode = options.mode;
  const latest = Math.min(options.latest ?? DATE_LIMIT_MS, DATE_LIMIT_MS);
  let offsetMs = options.offsetMs ?? (options.now === undefined ? 0 : options.now - Date.now());
  let frozenAt = options.now ?? Date.now();
  // While advance runs a job, "now" is that job's due time, so what it records carries that time.
  let pinnedAt: number | undefined;
  const queue = new JobQueue();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let advancing: Promise<void> = Promise.resolve();
  // While an advance walks its window it runs every job itself, so the wall-clock timer stands aside.
  let walking = false;
  // Asynchronous jobs the wall-clock timer started (a delivery attempt due "now" on a frozen clock):
  // an advance lets them finish first, so what they schedule falls into its window.
  const started = new Set<Promise<void>>();

  const now = (): number => {
    if (pinnedAt !== undefined) return pinnedAt;
    // A real clock that reaches the latest time stays there: it never shows a time it may not hold.
    return mode === 'frozen' ? frozenAt : Math.min(Date.now() + offsetMs, latest);
  };

  const reportFailure = (error: unknown): void => {
    // A job failing must never take the emulator down; it is reported and the queue goes on.
    console.error('[parley-emulator] scheduled job failed:', error);
  };

  /** Runs a job; returns a promise only for an asynchronous one (most jobs are synchronous). */
  const runJob = (job: QueuedJob): Promise<void> | undefined => {
    try {
      const result = job.run();
      return result instanceof Promise ? result.catch(reportFailure) : undefined;
    } catch (error) {
      reportFailure(error);
      return undefined;
    }
  };

  const arm = (): void => {
    if (stopped) return;
    let next = queue.peekTime();
    // A frozen clock stops time, not work that is already due (e.g. a delivery's first attempt).
    if (mode === 'frozen' && (next === undefined || next > now())) return;
    // Past the latest time nothing can fall due: no timer that would only wake to find nothing.
    if (next !== undefined && next > latest) next = undefined;
    if (next === undefined) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      return;
    }
    if (timer && timerAt <= next) return;
    if (timer) clearTimeout(timer);
    timerAt = next;
    timer = setTimeout(fireDue, Math.min(MAX_TIMER_DELAY, Math.max(0, next - now())));
    timer.unref?.();
  };

  function fireDue(): void {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    if (walking) return;
    const current = now();
    for (let job = queue.popDue(current); job; job = queue.popDue(current)) {
      const running = runJob(job);
      if (!running) continue;
      started.add(running);
      void running.finally(() => started.delete(running));
    }
    arm();
  }

  const scheduler: Scheduler = {
    schedule(at, run): ScheduledJob {
      const job = queue.push(at, run);
      arm();
      return job;
    },
  };

  const advanceBy = async (ms: number): Promise<void> => {
    walking = true;
    try {
      while (started.size > 0) await Promise.all(started);
      const target = now() + ms;
      // Checked where advances queue up, so one waiting behind another sees where that one ended.
      if (target > latest)
        throw new RangeError(`advance(${ms}) would pass the latest time the clock may show`);
      for (let at = queue.peekTime(); at !== undefined && at <= target; at = queue.peekTime()) {
        pinnedAt = Math.max(at, now());
        if (mode === 'frozen') frozenAt = pinnedAt;
        // Every job due at this instant starts before any is awaited, so they run side by side; the
        // next instant waits for them, so what they schedule (a retry) is run at its own time.
        const pending: Promise<void>[] = [];
        try {
          for (let job = queue.popAt(at); job; job = queue.popAt(at)) {
            const running = runJob(job);
            if (running) pending.push(running);
          }
          if (pending.length > 0) await Promise.all(pending);
        } finally {
          pinnedAt = undefined;
        }
      }
      if (mode === 'frozen') frozenAt = Math.max(frozenAt, target);
      else offsetMs = Math.max(offsetMs, target - Date.now());
    } finally {
      walking = false;
      arm();
    }
  };

  const clock: Clock = {
    mode,
    now,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new RangeError('advance(ms) needs ms >= 0'));
      // Advances never interleave: the second waits for the first to finish its window.
      const run = advancing.then(() => advanceBy(ms));
      advancing = run.catch(() => undefined);
      return run;
    },
  };

  return {
    clock,
    scheduler,
    snapshot: () => ({ mode, offsetMs, frozenAt }),
    clearJobs() {
      queue.clear();
      arm();
    },
    jumpTo(ms) {
      if (mode === 'frozen') frozenAt = ms;
      else offsetMs = ms - Date.now();
      arm();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
