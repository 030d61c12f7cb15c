import type { EmulatorCore } from './emulator-core';
import { checkAdvanceMs } from './workspaces';

/** `GET /_emulator/clock`: the global clock (the seed workspace's and every shared one's). */
export function globalClock(core: EmulatorCore): { now: string; mode: 'real' | 'frozen' } {
  return { now: new Date(core.now()).toISOString(), mode: core.timeline.clock.mode };
}

/** `POST /_emulator/clock/advance`: runs the global timeline's jobs that fall due, in time order. */
export async function advanceGlobalClock(core: EmulatorCore, ms: unknown): Promise<{ now: string }> {
  await core.timeline.clock.advance(checkAdvanceMs(ms));
  const now = new Date(core.now()).toISOString();
  core.activity.publish({ kind: 'clock', application_ids: [], now, mode: core.timeline.clock.mode });
  return { now };
}
