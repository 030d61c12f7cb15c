import type { ClockMode } from '../clock/clock-types';
import { createTimeline, type Timeline } from '../clock/create-timeline';
import { resumedTime } from '../clock/resumed-time';
import { CLOCK_LATEST_MS, describeTime, isClockTime } from '../domain/clock-range';
import type { WorkspaceRecord } from '../domain/records';

/**
 * A clock starts (or is restored, from `--data-dir`) outside the range the emulator can move
 * through (`domain/clock-range.ts`): refused before anything runs on it.
 */
export class ClockRangeError extends RangeError {
  override readonly name = 'ClockRangeError';
  constructor(
    /** `the global clock` or `the clock of workspace <id>`. */
    readonly owner: string,
    readonly time: number,
  ) {
    super(
      `${owner} is at ${describeTime(time)}, outside the times an emulator clock can hold (1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z)`,
    );
  }
}

/**
 * The timelines of the emulator: the global one, and one per workspace created with a clock of
 * its own (`POST /_emulator/workspaces {"clock":"frozen"}`), so parallel test runs each move their
 * own time. Everything about a workspace (its messages' ages, `created_at`, rate-limit windows,
 * daily cap, deliveries and their retries) reads and schedules on its timeline.
 */
export class WorkspaceClocks {
  readonly #own = new Map<string, Timeline>();

  constructor(readonly global: Timeline) {
    const now = global.clock.now();
    if (!isClockTime(now)) throw new ClockRangeError('the global clock', now);
  }

  /** The timeline of a workspace: its own, or the global one (also for an unknown id). */
  of(workspaceId: string | undefined): Timeline {
    return (workspaceId === undefined ? undefined : this.#own.get(workspaceId)) ?? this.global;
  }

  /** Whether the workspace has a clock of its own. */
  owns(workspaceId: string): boolean {
    return this.#own.has(workspaceId);
  }

  /** Gives a workspace its own clock, starting at `now` (ms, within the clock range). */
  create(workspaceId: string, mode: ClockMode, now: number): Timeline {
    if (!isClockTime(now)) throw new ClockRangeError(`the clock of workspace ${workspaceId}`, now);
    const timeline = createTimeline({ mode, now, latest: CLOCK_LATEST_MS });
    this.#own.set(workspaceId, timeline);
    return timeline;
  }

  /**
   * Makes the own clocks those the workspace records say (after a load or a reset): clocks of
   * workspaces gone are stopped, saved ones start where they were saved, existing ones go on. A
   * saved clock outside the clock range throws {@link ClockRangeError}.
   */
  rebuild(workspaces: Readonly<Record<string, WorkspaceRecord>>): void {
    for (const [id, timeline] of this.#own) {
      if (workspaces[id]?.clock) continue;
      timeline.stop();
      this.#own.delete(id);
    }
    for (const workspace of Object.values(workspaces)) {
      const saved = workspace.clock;
      if (!saved || this.#own.has(workspace.id)) continue;
      const now = resumedTime(
        { mode: saved.mode, offsetMs: saved.offset_ms, frozenAt: saved.frozen_at },
        CLOCK_LATEST_MS,
      );
      this.create(workspace.id, saved.mode, now);
    }
  }

  /** Every timeline, the global one first. */
  all(): Timeline[] {
    return [this.global, ...this.#own.values()];
  }

  /** Cancels every job of every timeline (a reset) without touching their times. */
  clearJobs(): void {
    for (const timeline of this.all()) timeline.clearJobs();
  }

  stop(): void {
    for (const timeline of this.all()) timeline.stop();
  }
}

/** A workspace clock as the workspace record saves it (`--data-dir`). */
export function savedClock(timeline: Timeline): NonNullable<WorkspaceRecord['clock']> {
  const { mode, offsetMs, frozenAt } = timeline.snapshot();
  return { mode, offset_ms: offsetMs, frozen_at: frozenAt };
}
