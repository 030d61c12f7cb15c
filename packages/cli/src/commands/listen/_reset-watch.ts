import { followActivity } from '../../client/activity-stream';

/** What {@link watchResets} follows and whom it tells. */
export interface ResetWatch {
  origin: string;
  fetch: (request: Request) => Promise<Response>;
  /** Ends the watch. */
  signal: AbortSignal;
  /** The whole emulator went back to its seed: every endpoint is gone. Awaited before the next item. */
  onReset: () => Promise<void>;
  /** The activity stream could not be followed at all: resets will go unnoticed. */
  onUnavailable: (reason: string) => void;
}

/**
 * Follows the emulator's activity stream for resets of the whole emulator (a `reset` item without
 * `workspace_id`), which remove every endpoint. A workspace's reset keeps its endpoints, so it is
 * not one. Runs until the signal aborts; never rejects.
 */
export async function watchResets(watch: ResetWatch): Promise<void> {
  try {
    const items = followActivity({ origin: watch.origin, fetch: watch.fetch, signal: watch.signal });
    for await (const item of items) {
      if (item.kind === 'reset' && item.workspace_id === undefined) await watch.onReset();
    }
  } catch (error) {
    if (!watch.signal.aborted) watch.onUnavailable(error instanceof Error ? error.message : String(error));
  }
}
