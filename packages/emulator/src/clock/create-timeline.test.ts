import { describe, expect, test } from 'vitest';
import { createTimeline } from './create-timeline';

const T0 = Date.parse('2026-10-14T09:30:00Z');

/** A promise and the function that resolves it. */
function gate(): [Promise<void>, () => void] {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return [promise, open];
}

describe('frozen clock', () => {
  test('does not move by itself and moves by exactly what advance says', async () => {
    const { clock } = createTimeline({ mode: 'frozen', now: T0 });
    expect(clock.now()).toBe(T0);
    await clock.advance(1_500);
    expect(clock.now()).toBe(T0 + 1_500);
    expect(clock.mode).toBe('frozen');
  });

  test('advance runs due jobs in time order, each seeing its own due time', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const seen: [string, number][] = [];
    scheduler.schedule(T0 + 5_000, () => void seen.push(['five', clock.now()]));
    scheduler.schedule(T0 + 2_000, () => void seen.push(['two', clock.now()]));
    scheduler.schedule(T0 + 9_000, () => void seen.push(['nine', clock.now()]));
    await clock.advance(6_000);
    expect(seen).toEqual([
      ['two', T0 + 2_000],
      ['five', T0 + 5_000],
    ]);
    expect(clock.now()).toBe(T0 + 6_000);
    await clock.advance(3_000);
    expect(seen.map(([name]) => name)).toEqual(['two', 'five', 'nine']);
  });

  test('jobs scheduled by jobs run in the same advance when they fall due within it', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const attempts: number[] = [];
    const attempt = () => {
      attempts.push(clock.now() - T0);
      // A retry schedule: 30 s, 60 s, 120 s after each attempt.
      if (attempts.length < 4) scheduler.schedule(clock.now() + 30_000 * 2 ** (attempts.length - 1), attempt);
    };
    scheduler.schedule(T0, attempt);
    await clock.advance(60 * 60_000);
    expect(attempts).toEqual([0, 30_000, 90_000, 210_000]);
  });

  test('a job due later than the window waits, a cancelled job never runs', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const ran: string[] = [];
    const cancelled = scheduler.schedule(T0 + 1_000, () => void ran.push('cancelled'));
    scheduler.schedule(T0 + 10_000, () => void ran.push('later'));
    cancelled.cancel();
    await clock.advance(9_999);
    expect(ran).toEqual([]);
    await clock.advance(1);
    expect(ran).toEqual(['later']);
  });

  test('jobs due at the same instant run together, so one slow job does not hold the other back', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const order: string[] = [];
    let release: () => void = () => {};
    scheduler.schedule(T0 + 1_000, async () => {
      order.push('slow started');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      order.push('slow finished');
    });
    scheduler.schedule(T0 + 1_000, () => {
      order.push('fast');
      release();
    });
    await clock.advance(1_000);
    expect(order).toEqual(['slow started', 'fast', 'slow finished']);
  });

  test('a job the timer started before an advance is awaited first, so what it schedules runs in that advance', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const ran: number[] = [];
    let started = false;
    const [opened, release] = gate();
    // Due now: a frozen clock's timer starts it without any advance.
    scheduler.schedule(T0, async () => {
      started = true;
      await opened;
      scheduler.schedule(clock.now() + 1_000, () => void ran.push(clock.now()));
    });
    await expect.poll(() => started).toBe(true);
    const advanced = clock.advance(5_000);
    release();
    await advanced;
    expect(ran).toEqual([T0 + 1_000]);
  });

  test('while an advance awaits a job, a job scheduled for that instant is run and awaited by the advance, not the timer', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const ran: number[] = [];
    let started = false;
    const [first, releaseFirst] = gate();
    const [second, releaseSecond] = gate();
    scheduler.schedule(T0 + 1_000, async () => {
      started = true;
      await first;
    });
    const advanced = clock.advance(5_000);
    await expect.poll(() => started).toBe(true);
    // Scheduled from outside (a send during the advance), due at the instant the advance holds.
    scheduler.schedule(clock.now(), async () => {
      await second;
      scheduler.schedule(clock.now() + 500, () => void ran.push(clock.now()));
    });
    // Timers of equal delay fire in the order they were set: the clock's own timer had its turn.
    await new Promise((resolve) => setTimeout(resolve, 0));
    releaseFirst();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Had the timer run it, the advance would be over by now and this job's follow-up too late.
    releaseSecond();
    await advanced;
    expect(ran).toEqual([T0 + 1_500]);
    expect(clock.now()).toBe(T0 + 5_000);
  });

  test('a job already due runs without moving time; a failing job does not stop the others', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0 });
    const errors = console.error;
    console.error = () => {};
    try {
      const done = new Promise<number>((resolve) => {
        scheduler.schedule(T0 - 1, () => {
          throw new Error('boom');
        });
        scheduler.schedule(T0, () => resolve(clock.now()));
      });
      expect(await done).toBe(T0);
    } finally {
      console.error = errors;
    }
  });

  test('advance refuses to pass the latest time: a RangeError, and neither time nor jobs move', async () => {
    const { clock, scheduler } = createTimeline({ mode: 'frozen', now: T0, latest: T0 + 1_000 });
    const ran: number[] = [];
    scheduler.schedule(T0 + 500, () => void ran.push(clock.now()));
    await expect(clock.advance(1_001)).rejects.toThrow(
      new RangeError('advance(1001) would pass the latest time the clock may show'),
    );
    expect(clock.now()).toBe(T0);
    expect(ran).toEqual([]);
    await clock.advance(1_000);
    expect(clock.now()).toBe(T0 + 1_000);
    expect(ran).toEqual([T0 + 500]);
  });

  test('without a latest time, the last millisecond a Date can hold is the limit', async () => {
    const { clock } = createTimeline({ mode: 'frozen', now: 8.64e15 - 10 });
    await expect(clock.advance(11)).rejects.toThrow(RangeError);
    await clock.advance(10);
    expect(new Date(clock.now()).toISOString()).toBe('+275760-09-13T00:00:00.000Z');
  });

  test('advance refuses negative or non-finite amounts', async () => {
    const { clock } = createTimeline({ mode: 'frozen', now: T0 });
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError);
  });
});

describe('real clock', () => {
  test('follows the wall clock plus everything advanced', async () => {
    const { clock, scheduler, stop } = createTimeline({ mode: 'real' });
    const ran: number[] = [];
    scheduler.schedule(Date.now() + 3_600_000, () => void ran.push(1));
    const before = Date.now();
    await clock.advance(3_600_000);
    expect(ran).toEqual([1]);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(clock.now()).toBeLessThan(Date.now() + 3_600_000 + 1_000);
    stop();
  });

  test('stops at the latest time: it never shows a later one, and an advance past it is refused', async () => {
    const latest = Date.now() + 60_000;
    const { clock, scheduler, stop } = createTimeline({ mode: 'real', now: latest + 3_600_000, latest });
    const ran: number[] = [];
    scheduler.schedule(latest + 1, () => void ran.push(1));
    expect(clock.now()).toBe(latest);
    await expect(clock.advance(1)).rejects.toThrow(RangeError);
    await clock.advance(0);
    expect(clock.now()).toBe(latest);
    expect(ran).toEqual([]);
    stop();
  });

  test('snapshot carries the offset so a restart continues from the same time', async () => {
    const first = createTimeline({ mode: 'real' });
    await first.clock.advance(86_400_000);
    const { offsetMs } = first.snapshot();
    const second = createTimeline({ mode: 'real', now: Date.now() + offsetMs });
    expect(Math.abs(second.clock.now() - first.clock.now())).toBeLessThan(1_000);
    first.stop();
    second.stop();
  });
});

describe('jumpTo (an import)', () => {
  test('a frozen clock stands at the time given, back or forth, and runs nothing by the jump', async () => {
    const timeline = createTimeline({ mode: 'frozen', now: T0 });
    const ran: number[] = [];
    timeline.scheduler.schedule(T0 + 1_000, () => {
      ran.push(timeline.clock.now());
    });
    timeline.jumpTo(T0 + 5_000);
    expect(timeline.clock.now()).toBe(T0 + 5_000);
    expect(ran).toEqual([]);
    timeline.clearJobs();
    timeline.jumpTo(T0 - 60_000);
    expect(timeline.clock.now()).toBe(T0 - 60_000);
    await timeline.clock.advance(1);
    expect(timeline.clock.now()).toBe(T0 - 59_999);
    expect(timeline.snapshot()).toMatchObject({ mode: 'frozen', frozenAt: T0 - 59_999 });
    timeline.stop();
  });

  test('a real clock runs on from the time given', () => {
    const timeline = createTimeline({ mode: 'real', now: T0 });
    const target = Date.UTC(2030, 0, 1);
    timeline.jumpTo(target);
    const now = timeline.clock.now();
    // Generous: only that it starts at the target and has not run off (no wall-time lower bound).
    expect(now).toBeGreaterThanOrEqual(target);
    expect(now).toBeLessThan(target + 60_000);
    timeline.stop();
  });
});
