/** `real` follows the wall clock (plus any offset moved forward); `frozen` moves only on `advance`. */
export type ClockMode = 'real' | 'frozen';

/** The one source of time in the emulator: every rule and timer reads it. */
export interface Clock {
  readonly mode: ClockMode;
  /** Milliseconds since the Unix epoch, emulator time. */
  now(): number;
  /** Moves time forward by `ms`, running every job that falls due, in time order. */
  advance(ms: number): Promise<void>;
}

/** A cancellable job handle. */
export interface ScheduledJob {
  cancel(): void;
}

/** Runs jobs at emulator times; in `real` mode also when the wall clock reaches them. */
export interface Scheduler {
  schedule(at: number, job: () => void | Promise<void>): ScheduledJob;
}
