import { useState } from 'preact/hooks';
import type { FaultView } from '../../core/fault-table';
import type { WorkspaceClockView } from '../../core/workspaces';
import type { MagicRecipient } from '../../domain/magic-recipients';
import { ApiError, api, path } from './api';
import { useConsole } from './console-context';
import type { Application, List } from './control-types';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
const STEPS: readonly [number, string][] = [
  [1_000, '1 s'],
  [5_000, '5 s'],
  [60_000, '1 min'],
  [3_600_000, '1 h'],
];

/**
 * The emulator's testing tools (docs/testing-your-app.md): the application's workspace clock,
 * fault injection into /v1 requests, and the magic sandbox recipients.
 */
export function TestingToolsView({ app }: { app: Application }) {
  return (
    <section id="testing" aria-labelledby="testing-title">
      <h2 id="testing-title">Testing tools</h2>
      <WorkspaceClock app={app} />
      <Faults />
      <MagicNumbers />
    </section>
  );
}

/** The clock of the application's workspace: its own (with advance buttons) or the shared global one. */
function WorkspaceClock({ app }: { app: Application }) {
  const { act } = useConsole();
  const clock = useLiveData(
    () => api<WorkspaceClockView>('GET', path`/_emulator/workspaces/${app.workspace_id}/clock`),
    [app.workspace_id],
  );
  const advance = (ms: number) =>
    act(async () => {
      const result = await api<{ now: string }>(
        'POST',
        path`/_emulator/workspaces/${app.workspace_id}/clock/advance`,
        { ms },
      );
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

/** What a fault answers, in words. */
function answerText(answer: FaultView['fault']): string {
  if ('hang' in answer) return 'hang';
  if ('drop' in answer) return 'drop the connection';
  if ('delay_ms' in answer) return `delay ${answer.delay_ms} ms`;
  return `${answer.status} ${answer.code}${answer.retry_after === undefined ? '' : `, Retry-After ${answer.retry_after} s`}`;
}

/** The form's input for each field of the `POST /_emulator/faults` body, to mark the one refused. */
const FAULT_INPUTS: ReadonlyMap<string, string> = new Map([
  ['method', 'fault-method'],
  ['path', 'fault-path'],
  ['key_prefix', 'fault-key-prefix'],
  ['times', 'fault-times'],
  ['fault', 'fault-kind'],
  ['fault.status', 'fault-status'],
  ['fault.code', 'fault-code'],
  ['fault.retry_after', 'fault-retry-after'],
  ['fault.delay_ms', 'fault-delay'],
]);

/** Injected faults: the form that adds one, the list with uses left, delete one or all. */
function Faults() {
  const { act } = useConsole();
  const [kind, setKind] = useState<'error' | 'hang' | 'drop' | 'delay'>('error');
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const faults = useLiveData(() => api<List<FaultView>>('GET', '/_emulator/faults?limit=100'), []);
  const add = (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(fields.get(name) ?? '').trim();
    // The input as typed, a number as a number: the emulator checks it and names what it refuses.
    const given = (name: string, asNumber = false): Record<string, unknown> => {
      const typed = text(name);
      if (typed === '') return {};
      const number = asNumber ? Number(typed) : Number.NaN;
      return { [name]: Number.isFinite(number) ? number : typed };
    };
    const fault =
      kind === 'hang'
        ? { hang: true }
        : kind === 'drop'
          ? { drop: true }
          : kind === 'delay'
            ? given('delay_ms', true)
            : { ...given('status', true), ...given('code'), ...given('retry_after', true) };
    const body = {
      ...given('method'),
      ...given('path'),
      ...given('key_prefix'),
      ...given('times', true),
      fault,
    };
    void act(async () => {
      try {
        const created = await api<FaultView>('POST', '/_emulator/faults', body);
        setRefusal(null);
        return `Fault added: ${answerText(created.fault)}.`;
      } catch (error) {
        if (error instanceof ApiError) setRefusal(error);
        throw error;
      }
    });
  };
  const remove = (fault: FaultView) =>
    act(async () => {
      await api('DELETE', path`/_emulator/faults/${fault.id}`);
      return 'Fault removed.';
    });
  const clear = () =>
    act(async () => {
      await api('DELETE', '/_emulator/faults');
      return 'Every fault removed.';
    });
  const list = faults.data?.data ?? [];
  // The input a refusal names, marked invalid and described by the message.
  const refusedInput = FAULT_INPUTS.get(String(refusal?.details.field));
  const marked = (id: string) => ({
    'aria-invalid': refusedInput === id,
    'aria-describedby': refusedInput === id ? 'fault-error' : undefined,
  });
  return (
    <section id="faults" aria-labelledby="faults-title">
      <h3 id="faults-title">Faults</h3>
      <p class="muted">
        The next matching /v1 requests get this answer instead of the real one: from any application, or only
        those whose API key starts with the prefix given.
      </p>
      <form id="fault-form" onSubmit={add} noValidate>
        <div class="form-grid">
          <div class="field">
            <label for="fault-method">Method</label>
            <select id="fault-method" name="method" {...marked('fault-method')}>
              <option value="">any</option>
              {METHODS.map((method) => (
                <option key={method} value={method}>
                  {method}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="fault-path">Path (* for one segment)</label>
            <input
              type="text"
              id="fault-path"
              name="path"
              placeholder="/v1/messages"
              {...marked('fault-path')}
            />
          </div>
          <div class="field">
            <label for="fault-key-prefix">API key prefix (optional)</label>
            <input
              type="text"
              id="fault-key-prefix"
              name="key_prefix"
              placeholder="prl_sandbox_AbCd"
              {...marked('fault-key-prefix')}
            />
          </div>
          <div class="field">
            <label for="fault-times">Times</label>
            <input type="number" id="fault-times" name="times" defaultValue="1" {...marked('fault-times')} />
          </div>
          <div class="field">
            <label for="fault-kind">Answer</label>
            <select
              id="fault-kind"
              {...marked('fault-kind')}
              value={kind}
              onChange={(event) => setKind(event.currentTarget.value as typeof kind)}
            >
              <option value="error">an error</option>
              <option value="hang">hang (no answer)</option>
              <option value="drop">drop the connection</option>
              <option value="delay">the real answer, late</option>
            </select>
          </div>
          {kind === 'error' && (
            <>
              <div class="field">
                <label for="fault-status">Status</label>
                <input
                  type="number"
                  id="fault-status"
                  name="status"
                  defaultValue="503"
                  {...marked('fault-status')}
                />
              </div>
              <div class="field">
                <label for="fault-code">Code</label>
                <input
                  type="text"
                  id="fault-code"
                  name="code"
                  defaultValue="internal_error"
                  {...marked('fault-code')}
                />
              </div>
              <div class="field">
                <label for="fault-retry-after">Retry-After (s, optional)</label>
                <input
                  type="number"
                  id="fault-retry-after"
                  name="retry_after"
                  {...marked('fault-retry-after')}
                />
              </div>
            </>
          )}
          {kind === 'delay' && (
            <div class="field">
              <label for="fault-delay">Delay (ms)</label>
              <input
                type="number"
                id="fault-delay"
                name="delay_ms"
                defaultValue="2000"
                {...marked('fault-delay')}
              />
            </div>
          )}
        </div>
        {refusal && (
          <p id="fault-error" class="field-error">
            {refusal.message}
          </p>
        )}
        <div class="row">
          <button type="submit" class="primary">
            Add fault
          </button>
          <button type="button" class="danger" onClick={clear} disabled={list.length === 0}>
            Clear all faults
          </button>
        </div>
      </form>
      <LoadError error={faults.error} />
      <div id="fault-list">
        {faults.data &&
          (list.length === 0 ? (
            <Empty>No fault: every /v1 request gets its real answer.</Empty>
          ) : (
            <table>
              <caption class="sr-only">Injected faults, first match answers</caption>
              <thead>
                <tr>
                  <th scope="col">Requests</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Left</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((fault) => (
                  <tr key={fault.id} data-fault-id={fault.id}>
                    <td>
                      <code>
                        {fault.method ?? 'any'} {fault.path ?? 'any /v1 path'}
                      </code>
                      {fault.key_id && <code> key {fault.key_id}</code>}
                      {fault.key_prefix && <code> key {fault.key_prefix}…</code>}
                    </td>
                    <td>{answerText(fault.fault)}</td>
                    <td>
                      {fault.remaining} of {fault.times}
                    </td>
                    <td class="actions">
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Remove fault ${answerText(fault.fault)}`}
                        onClick={() => remove(fault)}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </div>
    </section>
  );
}

/** The sandbox recipients with a fixed outcome. */
function MagicNumbers() {
  const numbers = useLiveData(
    () => api<List<MagicRecipient>>('GET', '/_emulator/magic-numbers?limit=100'),
    [],
  );
  return (
    <section id="magic-numbers" aria-labelledby="magic-numbers-title">
      <h3 id="magic-numbers-title">Magic recipients</h3>
      <LoadError error={numbers.error} />
      {numbers.data && (
        <table>
          <caption class="sr-only">Sandbox recipients with a fixed outcome</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Behaviour</th>
              <th scope="col">What happens</th>
            </tr>
          </thead>
          <tbody>
            {numbers.data.data.map((recipient) => (
              <tr key={recipient.number}>
                <td>
                  <code>{recipient.number}</code>
                </td>
                <td>
                  <code>{recipient.behaviour}</code>
                </td>
                <td>{recipient.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
