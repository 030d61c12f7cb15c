import { describe, expect, test } from 'vitest';
import { createTimeline } from './create-timeline';

const T0 = Date.parse('2026-10-14T09:30:00Z');

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
