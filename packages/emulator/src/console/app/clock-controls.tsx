import { useEffect, useState } from 'preact/hooks';
import { DURATION_EXAMPLES, readDuration } from '../../domain/duration';
import { useConsole } from './console-context';
import { control } from './control';
import type { ClockView } from './control-types';
import { when } from './format';

const STEPS: readonly [number, string][] = [
  [1_000, '1 s'],
  [5_000, '5 s'],
  [60_000, '1 min'],
  [3_600_000, '1 h'],
  [86_400_000, '24 h'],
];

/** The emulator clock: now, its mode, fixed advances and a typed duration. */
export function ClockControls({ clock }: { clock: ClockView | undefined }) {
  const { act } = useConsole();
  const [typed, setTyped] = useState('');
  // Why the typed duration was refused (the emulator's one duration grammar says it), or null.
  const [refusal, setRefusal] = useState<string | null>(null);
  const shown = useRealTime(clock);
  const advance = (ms: number) =>
    act(async () => {
      const result = await control.advanceClock(ms);
      return `Clock advanced to ${when(result.now)}.`;
    });
  const advanceTyped = (event: Event) => {
    event.preventDefault();
    const reading = readDuration(typed);
    setRefusal(reading.ok ? null : reading.message);
    if (reading.ok) void advance(reading.ms).then(() => setTyped(''));
  };
  return (
    <fieldset class="clock">
      <legend class="sr-only">Emulator clock</legend>
      <span>
        Now:{' '}
        <output id="clock-now" aria-live="off">
          {shown ? when(shown) : '…'}
        </output>
      </span>
      <span class="badge muted" id="clock-mode" title="Clock mode">
        {clock?.mode ?? '…'}
      </span>
      {STEPS.map(([ms, label]) => (
        <button type="button" key={ms} onClick={() => advance(ms)}>
          +{label}
        </button>
      ))}
      <form class="row" onSubmit={advanceTyped}>
        <label for="advance-by" class="sr-only">
          Advance the clock by (e.g. {DURATION_EXAMPLES})
        </label>
        <input
          id="advance-by"
          type="text"
          size={7}
          placeholder="1h30m"
          value={typed}
          aria-invalid={refusal !== null}
          aria-describedby={refusal === null ? undefined : 'advance-by-error'}
          onInput={(event) => setTyped(event.currentTarget.value)}
        />
        <button type="submit">Advance</button>
        {refusal !== null && (
          <span id="advance-by-error" class="field-error">
            {refusal}
          </span>
        )}
      </form>
    </fieldset>
  );
}

/** The clock's time, ticking every second in `real` mode (a frozen clock moves only when advanced). */
function useRealTime(clock: ClockView | undefined): string | undefined {
  const [, setTick] = useState(0);
  const [base, setBase] = useState({ at: Date.now(), now: clock?.now });
  useEffect(() => {
    setBase({ at: Date.now(), now: clock?.now });
    if (clock?.mode !== 'real') return;
    const timer = setInterval(() => setTick((tick) => tick + 1), 1_000);
    return () => clearInterval(timer);
  }, [clock?.now, clock?.mode]);
  if (!base.now || clock?.mode !== 'real') return clock?.now;
  return new Date(Date.parse(base.now) + Date.now() - base.at).toISOString().replace(/\.\d+Z$/, 'Z');
}
