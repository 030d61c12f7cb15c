import { useState } from 'preact/hooks';
import {
  type EmulatorControlError,
  isEmulatorControlError,
} from '../../control-client/control-client-errors';
import type { ChaosInput } from '../../core/control-types';
import { CHAOS_KINDS } from '../../domain/chaos-kinds';
import { type ChaosDraft, settingText, splitChaos } from './_chaos-setting';
import { ChaosForm } from './chaos-form';
import { useConsole } from './console-context';
import { control } from './control';
import type { Endpoint } from './control-types';
import { useLiveData } from './live-data';

/**
 * An endpoint's webhook chaos (`GET /_emulator/endpoints/{id}/chaos`): the summary says the kinds
 * set (`next` counting down), the seed and how many deliveries got each; opened, a form replaces
 * them (`PUT`, refusals said at the field) or turns chaos off (`DELETE`).
 */
export function ChaosSettings({ endpoint }: { endpoint: Endpoint }) {
  const { act } = useConsole();
  const chaos = useLiveData(
    () => control.getChaos(endpoint.id),
    [endpoint.id],
    ['control', 'delivery', 'reset'],
  );
  // Filled from the settings when opened and after each change it makes, never by a live refresh
  // (which would undo what is being typed); `version` starts a fresh form.
  const [form, setForm] = useState<{ draft: ChaosDraft; version: number } | null>(null);
  const [refusal, setRefusal] = useState<EmulatorControlError | null>(null);
  if (!chaos.data) return chaos.error ? <span class="muted">?</span> : null;
  const { seed, applied, kinds } = splitChaos(chaos.data);
  const set = Object.entries(kinds);
  const counts = Object.entries(applied);
  const restart = (draft: ChaosDraft) => setForm({ draft, version: (form?.version ?? 0) + 1 });
  const change = (call: () => Promise<ChaosDraft>, done: string) =>
    act(async () => {
      try {
        restart(await call());
        setRefusal(null);
        return done;
      } catch (error) {
        if (isEmulatorControlError(error)) setRefusal(error);
        throw error;
      }
    });
  const apply = (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(fields.get(name) ?? '').trim();
    // Empty or not a number goes as null: the API refuses it, naming the field.
    const number = (name: string) => (text(name) === '' ? null : Number(text(name)));
    const body: Record<string, unknown> = {};
    for (const kind of CHAOS_KINDS) {
      const mode = text(`${kind}.mode`);
      if (mode !== 'next' && mode !== 'rate') continue;
      const delay = kind === 'delayed' ? number('delayed.delay_ms') : null;
      body[kind] = { [mode]: number(`${kind}.amount`), ...(delay === null ? {} : { delay_ms: delay }) };
    }
    if (text('seed') !== '') body.seed = number('seed');
    void change(async () => {
      // As typed: the API checks each setting and names the one it refuses.
      const view = splitChaos(await control.setChaos(endpoint.id, body as ChaosInput));
      return { kinds: view.kinds, seed: view.seed };
    }, `Chaos set on ${endpoint.url}.`);
  };
  const off = () =>
    change(async () => {
      await control.clearChaos(endpoint.id);
      return { kinds: {}, seed: null };
    }, `Chaos off for ${endpoint.url}.`);
  return (
    <details
      onToggle={(event) => {
        setRefusal(null);
        if (event.currentTarget.open) restart({ kinds, seed });
        else setForm(null);
      }}
    >
      <summary>
        {set.length === 0 && counts.length === 0 ? (
          <span class="muted">off</span>
        ) : (
          <span>
            {set.map(([kind, setting]) => (
              <span key={kind} class="badge chaos" title={`Webhook chaos: ${kind} ${settingText(setting)}`}>
                {kind} {settingText(setting)}
              </span>
            ))}
            {seed !== null && <span class="muted"> seed {seed}</span>}
            {counts.length > 0 && (
              <span class="muted">
                {' '}
                · applied {counts.map(([kind, count]) => `${kind} ${count}`).join(', ')}
              </span>
            )}
          </span>
        )}
        <span class="sr-only"> (change the webhook chaos of {endpoint.url})</span>
      </summary>
      {form && (
        <ChaosForm
          key={form.version}
          endpoint={endpoint}
          draft={form.draft}
          refusal={refusal}
          onApply={apply}
          onOff={off}
        />
      )}
    </details>
  );
}
