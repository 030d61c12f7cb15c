import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ReloadOn, useConsole } from './console-context';
import { errorText } from './format';

/** Data a view loaded, with the error of its last load. */
export interface LiveData<Data> {
  data: Data | undefined;
  error: string | undefined;
  reload: () => Promise<void>;
}

/**
 * Loads a view's data when `inputs` change, when an activity item of a kind in `reloadOn` arrives
 * on the stream, and on every full refresh (Refresh, polling, after an action). An answer that
 * arrives after a newer load started is dropped, so a slow answer never overwrites a newer one.
 */
export function useLiveData<Data>(
  load: () => Promise<Data>,
  inputs: readonly unknown[],
  reloadOn: ReloadOn,
): LiveData<Data> {
  const { register } = useConsole();
  const [state, setState] = useState<{ data: Data | undefined; error: string | undefined }>({
    data: undefined,
    error: undefined,
  });
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    try {
      const data = await loader.current();
      if (ticket === latest.current) setState({ data, error: undefined });
    } catch (error) {
      if (ticket === latest.current) setState((previous) => ({ ...previous, error: errorText(error) }));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, inputs);
  // The kinds are constants at each call site: joined, they change only if the call site does.
  const kinds = reloadOn === 'every change' ? reloadOn : reloadOn.join(' ');
  useEffect(() => register(reload, reloadOn), [register, reload, kinds]);
  return { ...state, reload };
}
