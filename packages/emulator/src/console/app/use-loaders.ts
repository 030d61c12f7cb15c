import { useCallback, useRef } from 'preact/hooks';
import type { ReloadOn } from './console-context';
import type { ActivityKind } from './control-types';

/** What changed since the last reload: the kinds of the stream items that arrived, or anything. */
export type Changed = ReadonlySet<ActivityKind> | 'anything';

/** Whether data reloaded on `reloadOn` may be stale after `changed`. */
export function affected(reloadOn: ReloadOn, changed: Changed): boolean {
  if (changed === 'anything' || reloadOn === 'every change') return true;
  return reloadOn.some((kind) => changed.has(kind));
}

/**
 * The loaders of the views shown, each with the activity kinds it follows: `reload` runs those a
 * change affects, so a message status reloads the messages, not the keys or the magic numbers.
 */
export function useLoaders() {
  const loaders = useRef(new Map<() => Promise<void>, ReloadOn>());
  const register = useCallback((reload: () => Promise<void>, reloadOn: ReloadOn) => {
    loaders.current.set(reload, reloadOn);
    return () => {
      loaders.current.delete(reload);
    };
  }, []);
  const reload = useCallback(async (changed: Changed) => {
    const due = [...loaders.current].filter(([, reloadOn]) => affected(reloadOn, changed));
    await Promise.all(due.map(([load]) => load()));
  }, []);
  return { register, reload };
}
