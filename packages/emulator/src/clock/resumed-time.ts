import type { ClockMode } from './clock-types';

/** A clock as a snapshot keeps it: its mode, how far a real one ran ahead of the wall clock, where a frozen one stood. */
export interface SavedClock {
  mode: ClockMode;
  offsetMs: number;
  frozenAt: number;
}

/**
 * The time a saved clock shows when the emulator starts again: a frozen one where it stood; a real
 * one the wall clock plus the offset it ran ahead, but never past `latest` (one that ran past it
 * while the emulator was stopped stands there, as it would have running). Whatever mode the clock
 * then runs in starts from this time.
 */
export function resumedTime(saved: SavedClock, latest: number, wallNow: number = Date.now()): number {
  return saved.mode === 'frozen' ? saved.frozenAt : Math.min(wallNow + saved.offsetMs, latest);
}
