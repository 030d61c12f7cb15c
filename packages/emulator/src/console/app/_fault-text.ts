import type { FaultView } from './control-types';

/** What a fault answers, in words. */
export function faultAnswerText(answer: FaultView['fault']): string {
  if ('hang' in answer) return 'hang';
  if ('drop' in answer) return 'drop the connection';
  if ('delay_ms' in answer) return `delay ${answer.delay_ms} ms`;
  return `${answer.status} ${answer.code}${answer.retry_after === undefined ? '' : `, Retry-After ${answer.retry_after} s`}`;
}
