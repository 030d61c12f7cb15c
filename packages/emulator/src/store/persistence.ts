import type { ClockMode } from '../clock/clock-types';
import type { EmulatorState } from './state';

/** One durable change: a record put into (or, with `v` undefined, removed from) a collection. */
export interface JournalEntry {
  c: 'messages' | 'idempotency' | 'deliveries' | 'daily_sends' | 'windows' | 'applications' | 'connections';
  id: string;
  v?: unknown;
}

/** The clock as persisted: a restart continues from the same emulator time. */
export interface ClockSnapshot {
  mode: ClockMode;
  offsetMs: number;
  frozenAt: number;
}

/** What a snapshot holds. */
export interface PersistedState {
  state: EmulatorState;
  clock: ClockSnapshot;
}

/** Whether the data dir can be written: `GET /_emulator/health` shows it. */
export type PersistenceHealth = { ok: true } | { ok: false; error: string };

/** How state reaches the disk (or does not, without `--data-dir`). */
export interface Persistence {
  /** The state left by the previous run, if any. */
  load(): PersistedState | undefined;
  /** Where snapshots read the live state from. */
  attach(source: () => PersistedState): void;
  /**
   * Appends entries durably before returning: a 202 is answered only after this, and the state in
   * memory changes only after it. Throws `PersistenceError` when the data dir cannot be written.
   */
  journal(entries: readonly JournalEntry[]): void;
  /** Something changed: a snapshot follows soon (coalesced). */
  changed(): void;
  /** Writes a snapshot now (after control-API changes, and before shutting down). */
  flush(): Promise<void>;
  /** The last write's outcome: failing until a write of the same kind succeeds again. */
  health(): PersistenceHealth;
  close(): Promise<void>;
}

/** Persistence of an in-memory emulator: nothing is written. */
export const memoryPersistence: Persistence = {
  load: () => undefined,
  attach: () => {},
  journal: () => {},
  changed: () => {},
  flush: () => Promise.resolve(),
  health: () => ({ ok: true }),
  close: () => Promise.resolve(),
};

/** Applies journal entries to a loaded snapshot, in order. */
export function replayJournal(state: EmulatorState, entries: readonly JournalEntry[]): void {
  for (const entry of entries) {
    const collection: Record<string, unknown> =
      entry.c === 'deliveries' ? state.webhooks.deliveries : (state[entry.c] as Record<string, unknown>);
    if (entry.v === undefined) delete collection[entry.id];
    else collection[entry.id] = entry.v;
  }
}
