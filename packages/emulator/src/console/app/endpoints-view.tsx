import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { ChaosView } from '../../core/control';
import { CHAOS_KINDS, type ChaosKind } from '../../domain/chaos-kinds';
import { ApiError, api, path, query } from './api';
import { useConsole } from './console-context';
import type { Application, Endpoint, List } from './control-types';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';
import { RevealSecret, type Secret } from './reveal-secret';

/** Webhook endpoints: create (refusals said at the field), enable/disable, test, rotate, delete. */
export function EndpointsView({ app }: { app: Application }) {
  const { config, act } = useConsole();
  const [secret, setSecret] = useState<Secret | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const endpoints = useLiveData(
    () => api<List<Endpoint>>('GET', `/_emulator/endpoints${query({ application_id: app.id, limit: 100 })}`),
    [app.id],
  );
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      try {
        const created = await api<Endpoint & { secret: string }>(
          'POST',
          path`/_emulator/applications/${app.id}/endpoints`,
          { url: String(fields.get('url')).trim(), events: fields.getAll('event').map(String) },
        );
        setRefusal(null);
        setSecret({ title: 'Signing secret', value: created.secret, note: `Endpoint ${created.url}` });
        (form.elements.namedItem('url') as HTMLInputElement).value = '';
        return 'Endpoint created.';
      } catch (error) {
        if (error instanceof ApiError) setRefusal(error.message);
        throw error;
      }
    });
  };
  return (
    <section id="endpoints" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Webhook endpoints</h2>
      <form id="endpoint-form" onSubmit={create}>
        <div class="field">
          <label for="endpoint-url">URL</label>
          <input
            type="url"
            id="endpoint-url"
            name="url"
            required
            placeholder="http://127.0.0.1:3000/webhooks"
            aria-invalid={refusal !== null}
            aria-describedby={refusal ? 'endpoint-url-error' : undefined}
          />
          {refusal && (
            <p id="endpoint-url-error" class="field-error">
              {refusal}
            </p>
          )}
        </div>
        <fieldset id="endpoint-events">
          <legend>Events</legend>
          {config.eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" name="event" value={type} defaultChecked />
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">
          Add endpoint
        </button>
      </form>
      <RevealSecret id="endpoint-secret" secret={secret} onDone={() => setSecret(null)} />
      <LoadError error={endpoints.error} />
      <div id="endpoint-list">
        {endpoints.data &&
          (endpoints.data.data.length === 0 ? (
            <Empty>No endpoint yet: add one above.</Empty>
          ) : (
            <EndpointTable endpoints={endpoints.data.data} onSecret={setSecret} />
          ))}
      </div>
    </section>
  );
}

function EndpointTable({
  endpoints,
  onSecret,
}: {
  endpoints: Endpoint[];
  onSecret: (secret: Secret) => void;
}) {
  const { act, navigate } = useConsole();
  const setActive = (endpoint: Endpoint, active: boolean) =>
    act(async () => {
      await api('PATCH', path`/_emulator/endpoints/${endpoint.id}`, { active });
      return `Endpoint ${active ? 'enabled' : 'disabled'}.`;
    });
  const test = (endpoint: Endpoint) =>
    act(async () => {
      const result = await api<{ event_id: string }>('POST', path`/_emulator/endpoints/${endpoint.id}/test`);
      return `Test event ${result.event_id} queued.`;
    });
  const rotate = (endpoint: Endpoint) =>
    act(async () => {
      const rotation = await api<{ secret: string; previous_expires_at: string }>(
        'POST',
        path`/_emulator/endpoints/${endpoint.id}/rotate-secret`,
      );
      onSecret({
        title: 'New signing secret',
        value: rotation.secret,
        note: `The previous secret keeps signing until ${when(rotation.previous_expires_at)}.`,
      });
      return 'Secret rotated.';
    });
  const remove = (endpoint: Endpoint) =>
    act(async () => {
      if (!confirm(`Delete the endpoint ${endpoint.url} and its deliveries?`)) return '';
      await api('DELETE', path`/_emulator/endpoints/${endpoint.id}`);
      return 'Endpoint deleted.';
    });
  return (
    <table>
      <caption class="sr-only">Endpoints of this application</caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Events</th>
          <th scope="col">Enabled</th>
          <th scope="col">Chaos</th>
          <th scope="col">
            <span class="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
            <td>
              <code>{endpoint.url}</code>
            </td>
            <td class="events">{endpoint.events.join(', ')}</td>
            <td>
              <label>
                <input
                  type="checkbox"
                  checked={endpoint.active}
                  onChange={(event) => setActive(endpoint, event.currentTarget.checked)}
                />
                <span class="sr-only">Enabled: {endpoint.url}</span>
              </label>
            </td>
            <td class="chaos-settings">
              <ChaosSettings endpoint={endpoint} />
            </td>
            <td class="actions">
              <button
                type="button"
                aria-label={`Deliveries to ${endpoint.url}`}
                onClick={() => navigate({ view: 'deliveries', endpoint: endpoint.id })}
              >
                Deliveries
              </button>
              <button
                type="button"
                aria-label={`Send test event to ${endpoint.url}`}
                onClick={() => test(endpoint)}
              >
                Send test
              </button>
              <button
                type="button"
                aria-label={`Rotate secret of ${endpoint.url}`}
                onClick={() => rotate(endpoint)}
              >
                Rotate secret
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Delete endpoint ${endpoint.url}`}
                onClick={() => remove(endpoint)}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How one setting reads: `next 2`, `rate 0.1`, with a `delayed` kind's delay. */
function settingText(setting: Setting): string {
  const amount = setting.next === undefined ? `rate ${setting.rate}` : `next ${setting.next}`;
  return setting.delay_ms === undefined ? amount : `${amount}, ${setting.delay_ms} ms`;
}

type Setting = { next?: number; rate?: number; delay_ms?: number };

/** The settings the chaos form starts from: the kinds set, and the seed. */
interface ChaosDraft {
  kinds: Partial<Record<ChaosKind, Setting>>;
  seed: number | null;
}

/** The kinds set in a `GET /_emulator/endpoints/{id}/chaos` answer, the seed and the counts apart. */
function splitChaos(view: ChaosView) {
  const { endpoint_id: _id, seed, applied, ...kinds } = view;
  return { seed, applied: applied as Record<string, number>, kinds: kinds as Record<string, Setting> };
}

/**
 * An endpoint's webhook chaos (`GET /_emulator/endpoints/{id}/chaos`): the summary says the kinds
 * set (`next` counting down), the seed and how many deliveries got each; opened, a form replaces
 * them (`PUT`, refusals said at the field) or turns chaos off (`DELETE`).
 */
function ChaosSettings({ endpoint }: { endpoint: Endpoint }) {
  const { act } = useConsole();
  const chaos = useLiveData(
    () => api<ChaosView>('GET', path`/_emulator/endpoints/${endpoint.id}/chaos`),
    [endpoint.id],
  );
  // Filled from the settings when opened and after each change it makes, never by a live refresh
  // (which would undo what is being typed); `version` starts a fresh form.
  const [form, setForm] = useState<{ draft: ChaosDraft; version: number } | null>(null);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
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
        if (error instanceof ApiError) setRefusal(error);
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
      const view = splitChaos(
        await api<ChaosView>('PUT', path`/_emulator/endpoints/${endpoint.id}/chaos`, body),
      );
      return { kinds: view.kinds, seed: view.seed };
    }, `Chaos set on ${endpoint.url}.`);
  };
  const off = () =>
    change(async () => {
      await api('DELETE', path`/_emulator/endpoints/${endpoint.id}/chaos`);
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

/** The input a refused field names: `duplicate.rate` is the duplicate amount, `delayed` its mode. */
function refusedInput(refusal: ApiError | null): string | undefined {
  const field = refusal?.details.field;
  if (typeof field !== 'string') return undefined;
  const [kind, part] = field.split('.');
  if (kind === 'seed' || part === 'delay_ms') return field;
  return `${kind}.${part ? 'amount' : 'mode'}`;
}

/** One select (off, next N, rate) and one amount per kind, `delayed`'s delay, and the seed. */
function ChaosForm({
  endpoint,
  draft,
  refusal,
  onApply,
  onOff,
}: {
  endpoint: Endpoint;
  draft: ChaosDraft;
  refusal: ApiError | null;
  onApply: (event: Event) => void;
  onOff: () => void;
}) {
  const prefix = `chaos-${endpoint.id}`;
  const errorId = `${prefix}-error`;
  const invalid = refusedInput(refusal);
  // Each named input: its id and name, and whether the refusal is about it.
  const input = (name: string) => ({
    id: `${prefix}-${name.replace('.', '-')}`,
    name,
    'aria-invalid': invalid === name,
    'aria-describedby': invalid === name ? errorId : undefined,
  });
  return (
    <form class="chaos-form" aria-label={`Webhook chaos of ${endpoint.url}`} onSubmit={onApply} noValidate>
      <div class="chaos-grid">
        {CHAOS_KINDS.map((kind) => {
          const setting = draft.kinds[kind];
          // A used-up `next` (0) is off: the API takes 1 and more.
          const mode = !setting || setting.next === 0 ? 'off' : setting.next === undefined ? 'rate' : 'next';
          return (
            <Fragment key={kind}>
              <label for={`${prefix}-${kind}-mode`}>
                <code>{kind}</code>
              </label>
              <select {...input(`${kind}.mode`)}>
                <option value="off" selected={mode === 'off'}>
                  off
                </option>
                <option value="next" selected={mode === 'next'}>
                  next N
                </option>
                <option value="rate" selected={mode === 'rate'}>
                  rate (0 to 1)
                </option>
              </select>
              <label class="sr-only" for={`${prefix}-${kind}-amount`}>
                {kind}: N or rate
              </label>
              <input
                type="number"
                min={0}
                step="any"
                defaultValue={mode === 'off' ? '' : String(setting?.next ?? setting?.rate)}
                {...input(`${kind}.amount`)}
              />
              {kind === 'delayed' && (
                <span class="chaos-delay">
                  <label for={`${prefix}-delayed-delay_ms`}>delay (ms)</label>{' '}
                  <input
                    type="number"
                    min={1}
                    step={1}
                    defaultValue={setting?.delay_ms === undefined ? '' : String(setting.delay_ms)}
                    placeholder="60000"
                    {...input('delayed.delay_ms')}
                  />
                </span>
              )}
            </Fragment>
          );
        })}
      </div>
      <div class="field inline">
        <label for={`${prefix}-seed`}>Seed (optional)</label>
        <input
          type="number"
          min={0}
          step={1}
          defaultValue={draft.seed === null ? '' : String(draft.seed)}
          placeholder="random"
          {...input('seed')}
        />
      </div>
      {refusal && (
        <p id={errorId} class="field-error">
          {refusal.message}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary" aria-label={`Apply chaos to ${endpoint.url}`}>
          Apply
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`Turn chaos off for ${endpoint.url}`}
          onClick={onOff}
        >
          Turn chaos off
        </button>
      </div>
    </form>
  );
}
