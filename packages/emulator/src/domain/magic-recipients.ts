import type { MessageError } from '@parley/sdk';
import { DomainError } from './domain-error';
import type { StatusStep } from './status-step';

/** What a magic sandbox recipient does to a send. */
export type MagicBehaviour =
  | 'unreachable'
  | 'stays_sent'
  | 'read'
  | 'late_delivery'
  | 'fails_after_sent'
  | 'connection_inactive'
  | 'rate_limited';

/** One recipient with a fixed, documented outcome (`GET /_emulator/magic-numbers`). */
export interface MagicRecipient {
  number: string;
  behaviour: MagicBehaviour;
  description: string;
}

/** The message error of a `fails_after_sent` recipient, reached at 5 s. */
export const UNDELIVERABLE_ERROR: MessageError = Object.freeze({
  code: 'message_undeliverable',
  message: 'The platform could not deliver this message to the recipient.',
});

/** Seconds a `rate_limited` recipient's 429 asks to wait: short, since the answer never changes. */
export const MAGIC_RETRY_AFTER_SECONDS = 1;

/**
 * Sandbox recipients with a fixed outcome. All but the spec's `…0000` are in `+1 555 010 xxxx`: area
 * code 555 is unassigned and an exchange cannot start with 0, so no real number can collide.
 */
export const MAGIC_RECIPIENTS: readonly MagicRecipient[] = Object.freeze([
  {
    number: '+15550100000',
    behaviour: 'unreachable',
    description:
      'Any number ending in 0000: accepted (202) as failed with recipient_unreachable, its status event queued at once.',
  },
  {
    number: '+15550101001',
    behaviour: 'stays_sent',
    description: 'Sent at 2 s, then never delivered: it stays sent.',
  },
  {
    number: '+15550101002',
    behaviour: 'read',
    description: 'Sent at 2 s, delivered at 5 s, read at 10 s, with an event each.',
  },
  {
    number: '+15550101003',
    behaviour: 'late_delivery',
    description: 'Sent at 2 s, delivered late, at 60 s.',
  },
  {
    number: '+15550101004',
    behaviour: 'fails_after_sent',
    description: 'Sent at 2 s, then failed at 5 s with the message error message_undeliverable.',
  },
  {
    number: '+15550101005',
    behaviour: 'connection_inactive',
    description: 'The send is refused: 409 connection_inactive, as if the connection were disconnected.',
  },
  {
    number: '+15550101006',
    behaviour: 'rate_limited',
    description: `The send is refused: 429 rate_limited (bucket sends) with Retry-After: ${MAGIC_RETRY_AFTER_SECONDS}; nothing is consumed.`,
  },
]);

const BY_NUMBER = new Map(MAGIC_RECIPIENTS.map((recipient) => [recipient.number, recipient]));
const UNREACHABLE = BY_NUMBER.get('+15550100000')!;

/** The magic recipient a sandbox `to` is, if any: an exact number above, or any number ending in `0000`. */
export function magicRecipient(to: string): MagicRecipient | undefined {
  return BY_NUMBER.get(to) ?? (to.endsWith('0000') ? UNREACHABLE : undefined);
}

const STEPS: Partial<Record<MagicBehaviour, readonly StatusStep[]>> = {
  stays_sent: [{ status: 'sent', age: 2_000 }],
  read: [
    { status: 'sent', age: 2_000 },
    { status: 'delivered', age: 5_000 },
    { status: 'read', age: 10_000 },
  ],
  late_delivery: [
    { status: 'sent', age: 2_000 },
    { status: 'delivered', age: 60_000 },
  ],
  fails_after_sent: [
    { status: 'sent', age: 2_000 },
    { status: 'failed', age: 5_000, error: UNDELIVERABLE_ERROR },
  ],
};

/** The status steps of a queued sandbox message to `to` when it is magic, else undefined (the usual steps). */
export function magicSteps(to: string): readonly StatusStep[] | undefined {
  const behaviour = BY_NUMBER.get(to)?.behaviour;
  return behaviour === undefined ? undefined : STEPS[behaviour];
}

/** The error a sandbox send to `to` is refused with, before anything is stored, if it is one that refuses. */
export function magicRefusal(to: string, connectionId: string): DomainError | undefined {
  const behaviour = BY_NUMBER.get(to)?.behaviour;
  if (behaviour === 'connection_inactive') {
    return new DomainError(
      'connection_inactive',
      `Connection ${connectionId} is not active (sandbox magic recipient ${to}).`,
      { connection_id: connectionId },
    );
  }
  if (behaviour === 'rate_limited') {
    return new DomainError(
      'rate_limited',
      `Rate limit of the sends bucket reached (sandbox magic recipient ${to}); retry after the window resets.`,
      { bucket: 'sends', retry_after: MAGIC_RETRY_AFTER_SECONDS },
    );
  }
  return undefined;
}
