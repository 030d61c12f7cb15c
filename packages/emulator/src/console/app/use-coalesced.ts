import { useCallback, useRef } from 'preact/hooks';

/** Time to gather a burst of changes (a clock advance moves many messages) into one reload. */
const GATHER_MS = 120;

/**
 * A way to ask for `run` soon: calls during the gathering delay or while it runs make one more
 * run after it, never a pile of them. The console reloads what it shows this way on every change.
 */
export function useCoalesced(run: () => Promise<void>): () => void {
  const state = useRef({
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    running: false,
    again: false,
  });
  const target = useRef(run);
  target.current = run;
  const start = useCallback(() => {
    const current = state.current;
    current.timer = undefined;
    if (current.running) {
      current.again = true;
      return;
    }
    current.running = true;
    void target.current().finally(() => {
      current.running = false;
      if (current.again) {
        current.again = false;
        current.timer ??= setTimeout(start, GATHER_MS);
      }
    });
  }, []);
  return useCallback(() => {
    state.current.timer ??= setTimeout(start, GATHER_MS);
  }, [start]);
}
