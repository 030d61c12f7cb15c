import { Fragment } from 'preact';
import type { EmulatorControlError } from '../../control-client/control-client-errors';
import { CHAOS_KINDS } from '../../domain/chaos-kinds';
import { type ChaosDraft, refusedChaosInput } from './_chaos-setting';
import type { Endpoint } from './control-types';
import { errorText } from './format';

/** One select (off, next N, rate) and one amount per kind, `delayed`'s delay, and the seed. */
export function ChaosForm({
  endpoint,
  draft,
  refusal,
  onApply,
  onOff,
}: {
  endpoint: Endpoint;
  draft: ChaosDraft;
  refusal: EmulatorControlError | null;
  onApply: (event: Event) => void;
  onOff: () => void;
}) {
  const prefix = `chaos-${endpoint.id}`;
  const errorId = `${prefix}-error`;
  const invalid = refusedChaosInput(refusal?.details.field);
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
          {errorText(refusal)}
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
