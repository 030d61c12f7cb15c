import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Announcement, Announcer } from './announcer';
import { api } from './api';
import { ApplicationBar } from './application-bar';
import { ClockControls } from './clock-controls';
import type { ConsoleConfig } from './console-config';
import { type Action, ConsoleContext, type ConsoleState } from './console-context';
import type { Application, ClockView, List } from './control-types';
import { errorText } from './format';
import { useLiveFeed } from './live-feed';
import { LiveIndicator } from './live-indicator';
import { routeHref, useRoute, VIEWS } from './route';
import { useCoalesced } from './use-coalesced';
import { CurrentView } from './views';

/** The whole console: header (clock, refresh, reset), application bar, navigation and one view. */
export function App({ config }: { config: ConsoleConfig }) {
  const [route, navigate] = useRoute();
  const [apps, setApps] = useState<Application[]>([]);
  const [clock, setClock] = useState<ClockView>(config.clock);
  const [announcement, setAnnouncement] = useState<Announcement>({ status: '', error: '' });
  const loaders = useRef(new Set<() => Promise<void>>());
  const app = apps.find((candidate) => candidate.id === route.app) ?? apps[0] ?? null;

  const announce = useCallback((text: string, isError = false) => {
    setAnnouncement(isError ? { status: '', error: text } : { status: text, error: '' });
  }, []);
  const register = useCallback((reload: () => Promise<void>) => {
    loaders.current.add(reload);
    return () => loaders.current.delete(reload);
  }, []);
  const refresh = useCallback(async () => {
    try {
      const [clockView, appList] = await Promise.all([
        api<ClockView>('GET', '/_emulator/clock'),
        api<List<Application>>('GET', '/_emulator/applications?limit=100'),
      ]);
      setClock(clockView);
      setApps(appList.data);
      await Promise.all([...loaders.current].map((reload) => reload()));
    } catch (error) {
      announce(`Could not refresh: ${errorText(error)}`, true);
    }
  }, [announce]);
  const act = useCallback(
    async (action: Action) => {
      setAnnouncement({ status: '', error: '' });
      let message: string | undefined;
      let failed = false;
      try {
        message = await action();
      } catch (error) {
        message = errorText(error);
        failed = true;
      }
      await refresh();
      if (message) announce(message, failed);
    },
    [refresh, announce],
  );

  const refreshSoon = useCoalesced(refresh);
  const feed = useLiveFeed((item) => {
    if (item.kind === 'clock') setClock({ now: item.now, mode: item.mode });
    refreshSoon();
  }, refreshSoon);
  useEffect(() => {
    // The mark is what a load-time measurement reads: the first complete view, data included.
    void refresh().then(() => performance.mark('console-ready'));
  }, [refresh]);
  // The hash names the application shown, so a reload comes back to it. An id it already names
  // stays: it may be one just created, not yet in the list.
  useEffect(() => {
    if (app && route.app === null) navigate({ app: app.id });
  }, [app, route.app, navigate]);

  const state: ConsoleState = useMemo(
    () => ({ config, apps, app, route, navigate, act, announce, register }),
    [config, apps, app, route, navigate, act, announce, register],
  );
  return (
    <ConsoleContext.Provider value={state}>
      <header class="top">
        <h1>
          Parley <span>emulator console</span>
        </h1>
        <ClockControls clock={clock} />
        <div class="row">
          <LiveIndicator state={feed} />
          <button type="button" id="refresh" onClick={() => act(async () => 'Refreshed.')}>
            Refresh
          </button>
          <button type="button" id="reset" class="danger" onClick={() => act(reset)}>
            Reset
          </button>
        </div>
      </header>
      <ApplicationBar />
      <nav class="views" aria-label="Views">
        {VIEWS.map((view) => (
          <a
            key={view.name}
            href={routeHref({ view: view.name, app: app?.id ?? null, endpoint: null })}
            aria-current={route.view === view.name ? 'page' : undefined}
          >
            {view.title}
          </a>
        ))}
      </nav>
      <main id="main">
        {app ? (
          <CurrentView view={route.view} app={app} />
        ) : (
          <p class="empty">Create an application above to begin.</p>
        )}
      </main>
      <Announcer announcement={announcement} />
    </ConsoleContext.Provider>
  );
}

async function reset(): Promise<string> {
  if (!confirm('Reset the emulator to its seed? Everything created since start is lost.')) return '';
  await api('POST', '/_emulator/reset');
  return 'Emulator reset.';
}
