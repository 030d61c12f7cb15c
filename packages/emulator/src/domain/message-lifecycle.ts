import type { Message } from '@parley/sdk';
import { formatTimestamp } from './ids';
import { magicSteps } from './magic-recipients';
import type { MessageRecord } from './records';
import type { StatusStep } from './status-step';

export type { StatusStep } from './status-step';

/** Sandbox: queued < 2 s ≤ sent < 5 s ≤ delivered (spec 3.2, 8). */
export const SANDBOX_STEPS: readonly StatusStep[] = [
  { status: 'sent', age: 2_000 },
  { status: 'delivered', age: 5_000 },
];

/**
 * Simulated live: queued < 2 s ≤ sent < 5 s ≤ delivered < 10 s ≤ read (DESIGN §4, documented
 * schedule). Steps shared with the sandbox keep the sandbox's ages (a test pins this rule).
 */
export const LIVE_STEPS: readonly StatusStep[] = [
  { status: 'sent', age: 2_000 },
  { status: 'delivered', age: 5_000 },
  { status: 'read', age: 10_000 },
];

/**
 * The status steps of a message (none for failed or inbound messages): live, sandbox, or a sandbox
 * magic recipient's own (`magic-recipients.ts`).
 */
export function stepsOf(record: MessageRecord): readonly StatusStep[] {
  const { message } = record;
  if (message.direction === 'inbound' || message.status === 'failed') return [];
  if (message.livemode) return LIVE_STEPS;
  return (message.to !== null && magicSteps(message.to)) || SANDBOX_STEPS;
}

/** The message as it is at `now`: its status is a function of its age (spec 3.2). */
export function messageAt(record: MessageRecord, now: number): Message {
  const age = now - record.accepted_at;
  let reached: StatusStep | undefined;
  for (const step of stepsOf(record)) if (age >= step.age) reached = step;
  return reached ? messageAtStep(record, reached) : record.message;
}

/** The message as one of its steps leaves it (what the step's `message.status_updated` carries). */
export function messageAtStep(record: MessageRecord, step: StatusStep): Message {
  return {
    ...record.message,
    status: step.status,
    updated_at: formatTimestamp(record.accepted_at + step.age),
    ...(step.error ? { error: step.error } : {}),
  };
}
