import type { Timeline } from '../clock/create-timeline';
import { checkAdvance } from '../domain/clock-range';
import type { EmulatorCore } from './emulator-core';

/** `GET /_emulator/clock`: the global clock (the seed workspace's and every shared one's). */
export function globalClock(core: Pick<EmulatorCore, 'now' | 'timeline'>): {
  now: string;
  mode: 'real' | 'frozen';
} {
  return { now: new Date(core.now()).toISOString(), mode: core.timeline.clock.mode };
}

/** `POST /_emulator/clock/advance`: runs the global timeline's jobs that fall due, in time order. */
export async function advanceGlobalClock(
  core: Pick<EmulatorCore, 'now' | 'timeline' | 'activity'>,
  ms: unknown,
): Promise<{ now: string }> {
  await advanceTimeline(core.timeline, ms);
  const now = new Date(core.now()).toISOString();
  core.activity.publish({ kind: 'clock', application_ids: [], now, mode: core.timeline.clock.mode });
  return { now };
}

/**
 * Advances a timeline by a control call's `ms`, refused with 400 unless it is a whole number of
 * milliseconds up to 366 days that keeps the clock within its range (`checkAdvance`).
 */
export async function advanceTimeline(timeline: Timeline, ms: unknown): Promise<void> {
  const distance = checkAdvance(timeline.clock.now(), ms);
  try {
    await timeline.clock.advance(distance);
  } catch (error) {
    // An advance queued behind another starts where that one ended: checked again from there.
    if (error instanceof RangeError) checkAdvance(timeline.clock.now(), distance);
    throw error;
  }
}
