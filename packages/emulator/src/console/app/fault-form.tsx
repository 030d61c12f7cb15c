import { useState } from 'preact/hooks';
import {
  type EmulatorControlError,
  isEmulatorControlError,
} from '../../control-client/control-client-errors';
import type { CreateFaultInput } from '../../core/control-types';
import { faultAnswerText } from './_fault-text';
import { useConsole } from './console-context';
import { control } from './control';
import { errorText } from './format';

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

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

/**
 * The form that adds a fault (`POST /_emulator/faults`), sent as typed: the field the emulator
 * refuses is marked and described by its message. Clear all faults sits beside Add.
 */
export function FaultForm({ canClear, onClear }: { canClear: boolean; onClear: () => void }) {
  const { act } = useConsole();
  const [kind, setKind] = useState<'error' | 'hang' | 'drop' | 'delay'>('error');
  const [refusal, setRefusal] = useState<EmulatorControlError | null>(null);
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
        // As typed: the emulator checks the input and names the field it refuses.
        const created = await control.createFault(body as unknown as CreateFaultInput);
        setRefusal(null);
        return `Fault added: ${faultAnswerText(created.fault)}.`;
      } catch (error) {
        if (isEmulatorControlError(error)) setRefusal(error);
        throw error;
      }
    });
  };
  // The input a refusal names, marked invalid and described by the message.
  const refusedInput = FAULT_INPUTS.get(String(refusal?.details.field));
  const marked = (id: string) => ({
    'aria-invalid': refusedInput === id,
    'aria-describedby': refusedInput === id ? 'fault-error' : undefined,
  });
  return (
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
          {errorText(refusal)}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary">
          Add fault
        </button>
        <button type="button" class="danger" onClick={onClear} disabled={!canClear}>
          Clear all faults
        </button>
      </div>
    </form>
  );
}
