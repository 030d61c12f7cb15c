import type { FaultView } from '@parley/emulator/control';

/** What a fault answers, as people read it: `503 internal_error (Retry-After 2 s)`, `hang`, … */
export function describeAnswer(answer: FaultView['fault']): string {
  if ('hang' in answer) return 'hang (no answer until the client gives up)';
  if ('drop' in answer) return 'drop (connection reset)';
  if ('delay_ms' in answer) return `delay ${answer.delay_ms} ms, then the real answer`;
  return `${answer.status} ${answer.code}${answer.retry_after === undefined ? '' : ` (Retry-After ${answer.retry_after} s)`}`;
}

/** One line per fault: id, which requests, what they get, uses left. */
export function describeFault(fault: FaultView): string {
  const target = `${fault.method ?? 'any method'} ${fault.path ?? 'any /v1 path'}${
    fault.key_id ? ` key ${fault.key_id}` : fault.key_prefix ? ` key ${fault.key_prefix}…` : ''
  }`;
  return `${fault.id}  ${target}  → ${describeAnswer(fault.fault)}  (${fault.remaining} of ${fault.times} left)`;
}
