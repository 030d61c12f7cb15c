import { type Message, type SandboxEventType, sandboxEventOverrideProblem } from '@parley/sdk';
import { DomainError } from './domain-error';

/**
 * The `data` of a synthetic event with `overrides` (values by dotted path, `data.message.text`)
 * set in it, checked with the SDK's rules (`SANDBOX_EVENT_OVERRIDES`), so `parley trigger --set`
 * and the emulator refuse the same things. A refused override is 400 `validation_error` whose
 * `details.field` is its path. `data` itself is left as it was.
 */
export function withSandboxEventOverrides<Data extends object>(
  type: SandboxEventType,
  data: Data,
  overrides: unknown,
): Data {
  if (overrides === undefined) return data;
  const problem = sandboxEventOverrideProblem(type, overrides);
  if (problem) {
    throw new DomainError('validation_error', problem.message, {
      field: problem.field,
      reason: problem.reason,
    });
  }
  const event = { data: structuredClone(data) };
  for (const [path, value] of Object.entries(overrides as Record<string, unknown>))
    setPath(event, path, value);
  const message = (event.data as { message?: Message | string }).message;
  // A failed message always says why (spec 2.1): an override to `failed` brings the error the
  // sandbox gives an unreachable recipient.
  if (typeof message === 'object' && message.status === 'failed' && message.error === null) {
    message.error = {
      code: 'recipient_unreachable',
      message: `The sandbox recipient ${message.to} is unreachable.`,
    };
  }
  return event.data;
}

// Every path of the rules names a field the synthetic event already has, so each step exists.
function setPath(target: object, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  let node = target as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  node[last] = value;
}
