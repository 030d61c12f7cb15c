import type { Message, OutboundMessageStatus } from '@parley/sdk';
import type { MessageRecord } from './records';
import { formatTimestamp } from './ids';

/** One scheduled status change: the status reached at `age` ms after acceptance. */
export interface StatusStep {
  status: OutboundMessageStatus;
  age: number;
}

/** Sandbox: queued < 2 s ≤ sent < 5 s ≤ delivered (spec 3.2, 8). */
export const SANDBOX_STEPS: readonly StatusStep[] = [
  { status: 'sent', age: 2_000 },
  { status: 'delivered', age: 5_000 },
];

/**
 * Simulated live: queued < 2 s ≤ sent < 5 s ≤ delivered < 10 s ≤ read (DESIGN §4, documented
 * schedule). Steps shared with the sandbox keep the sandbox's ages: the status timers rely on
 * step k having one age whatever the environment.
 */
export const LIVE_STEPS: readonly StatusStep[] = [
  { status: 'sent', age: 2_000 },
  { status: 'delivered', age: 5_000 },
  { status: 'read', age: 10_000 },
];

/** The status steps still ahead of a message (none for failed or inbound messages). */
export function stepsOf(record: MessageRecord): readonly StatusStep[] {
  const { message } = record;
  if (message.direction === 'inbound' || message.status === 'failed') return [];
  return message.livemode ? LIVE_STEPS : SANDBOX_STEPS;
}

/** The message as it is at `now`: its status is a function of its age (spec 3.2). */
export function messageAt(record: MessageRecord, now: number): Message {
  const age = now - record.accepted_at;
  let reached: StatusStep | undefined;
  for (const step of stepsOf(record)) if (age >= step.age) reached = step;
  if (!reached) return record.message;
  return {
    ...record.message,
    status: reached.status,
    updated_at: formatTimestamp(record.accepted_at + reached.age),
  };
}
