import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';

const STEPS: readonly [number, string][] = [
  [1_000, '1 s'],
  [5_000, '5 s'],
  [60_000, '1 min'],
  [3_600_000, '1 h'],
];

/** The clock of the application's workspace: its own (with advance buttons) or the shared global one. */
export function WorkspaceClock({ app }: { app: Application }) {
  const { act } = useConsole();
  const clock = useLiveData(
    () => control.getWorkspaceClock(app.workspace_id),
    [app.workspace_id],
    ['clock', 'control', 'reset'],
  );
  const advance = (ms: number) =>
    act(async () => {
      const result = await control.advanceWorkspaceClock(app.workspace_id, ms);
      return `Workspace clock advanced to ${when(result.now)}.`;
    });
  const view = clock.data;
  return (
    <section id="workspace-clock" aria-labelledby="workspace-clock-title">
      <h3 id="workspace-clock-title">Workspace clock</h3>
      <LoadError error={clock.error} />
      {view && (
        <div class="row">
          <span>
            Now: <output id="workspace-clock-now">{when(view.now)}</output>
          </span>
          <span class="badge muted">{view.mode}</span>
          <span id="workspace-clock-kind">
            {view.own_clock
              ? 'Its own clock: advancing it moves this workspace only.'
              : 'Shares the global clock (the header moves it).'}
          </span>
          {view.own_clock &&
            STEPS.map(([ms, label]) => (
              <button
                type="button"
                key={ms}
                aria-label={`Advance the workspace clock by ${label}`}
                onClick={() => advance(ms)}
              >
                +{label}
              </button>
            ))}
        </div>
      )}
    </section>
  );
}
