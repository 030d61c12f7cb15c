import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Announcement, Announcer } from './announcer';
import { ApplicationBar } from './application-bar';
import { ClockControls } from './clock-controls';
import type { ConsoleConfig } from './console-config';
import { type Action, ConsoleContext, type ConsoleState } from './console-context';
import { control } from './control';
import type { ActivityKind, Application, ClockView } from './control-types';
import { errorText } from './format';
import { useLiveFeed } from './live-feed';
import { LiveIndicator } from './live-indicator';
import { routeHref, useRoute, VIEWS } from './route';
import { useCoalesced } from './use-coalesced';
import { affected, type Changed, useLoaders } from './use-loaders';
import { CurrentView } from './views';

/** The whole console: header (clock, refresh, reset), application bar, navigation and one view. */
export function App({ config }: { config: ConsoleConfig }) {
  const [route, navigate] = useRoute();
  const [apps, setApps] = useState<Application[]>([]);
  const [clock, setClock] = useState<ClockView>(config.clock);
  const [announcement, setAnnouncement] = useState<Announcement>({ status: '', error: '' });
  const { register, reload } = useLoaders();
  const app = apps.find((candidate) => candidate.id === route.app) ?? apps[0] ?? null;

  const announce = useCallback((text: string, isError = false) => {
    setAnnouncement(isError ? { status: '', error: text } : { status: text, error: '' });
  }, []);
  // Reloads what `changed` may have made stale: everything after an action, Refresh or a poll.
  const refresh = useCallback(
    async (changed: Changed = 'anything') => {
      try {
        const [clockView, appList] = await Promise.all([
          affected(['reset'], changed) ? control.getClock() : undefined,
          affected(['control', 'reset'], changed) ? control.listApplications({ limit: 100 }) : undefined,
        ]);
        if (clockView) setClock(clockView);
        if (appList) setApps(appList.data);
        await reload(changed);
      } catch (error) {
        announce(`Could not refresh: ${errorText(error)}`, true);
      }
    },
    [announce, reload],
  );
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

  // The kinds of the items gathered for the next reload ('anything' after a poll).
  const changed = useRef<Set<ActivityKind> | 'anything'>(new Set());
  const refreshChanged = useCoalesced(() => {
    const gathered = changed.current;
    changed.current = new Set();
    return refresh(gathered);
  });
  const feed = useLiveFeed(
    (item) => {
      // A workspace's own clock is not the global one the header shows.
      if (item.kind === 'clock' && item.workspace_id === undefined)
        setClock({ now: item.now, mode: item.mode });
      if (changed.current !== 'anything') changed.current.add(item.kind);
      refreshChanged();
    },
    () => {
      changed.current = 'anything';
      refreshChanged();
    },
  );
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
            href={routeHref({ view: view.name, app: app?.id ?? null, endpoint: null, message: null })}
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
  await control.reset();
  return 'Emulator reset.';
}
