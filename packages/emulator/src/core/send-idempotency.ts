import {
  findReplay,
  idempotencyRecord,
  idempotencySlot,
  inUseError,
  parseIdempotencyKey,
} from '../domain/idempotency';
import type { MessageRecord } from '../domain/records';
import type { JournalEntry } from '../store/persistence';
import type { EmulatorState } from '../store/state';

/**
 * A send's hold on its Idempotency-Key (DESIGN §2), from {@link SendIdempotency.begin} to
 * {@link SendIdempotency.release}.
 */
export interface IdempotencyTicket {
  /** The key as sent (`null` without the header): checked by {@link SendIdempotency.replay}. */
  readonly header: string | null;
  /** Where the key's record lives: the API key's id and the Idempotency-Key. */
  readonly slot: string;
  /** Whether an earlier request with this key was still in flight when this one began. */
  readonly busy: boolean;
}

/**
 * The one place sends meet idempotency: `begin` marks the key in flight while the body is read,
 * `replay` finds what an earlier send with it created, `commit` stores the record of a new send
 * (journal entry first, then memory), `release` ends the hold whatever the outcome.
 */
export class SendIdempotency {
  /** The ticket of each slot whose first request is still being read or processed. */
  readonly #inFlight = new Map<string, IdempotencyTicket>();
  readonly #state: () => EmulatorState;

  constructor(state: () => EmulatorState) {
    this.#state = state;
  }

  /**
   * Holds `header` for the API key `keyId` before the body is read, so a second request with it
   * meanwhile gets 409 `idempotency_key_in_use`.
   */
  begin(keyId: string, header: string | null): IdempotencyTicket {
    const slot = idempotencySlot(keyId, header ?? '');
    if (header === null || header === '') return { header, slot, busy: false };
    const busy = this.#inFlight.has(slot);
    const ticket = { header, slot, busy };
    if (!busy) this.#inFlight.set(slot, ticket);
    return ticket;
  }

  /**
   * The message an earlier send with this key and the same body (`fingerprint`) created, within
   * 24 h; undefined for a new key. Refuses, in this order: no key (400
   * `idempotency_key_required`), a malformed one (400), a key still in flight (409
   * `idempotency_key_in_use`), a key used with another body (409 `idempotency_key_reused`).
   */
  replay(ticket: IdempotencyTicket, fingerprint: string, now: number): MessageRecord | undefined {
    parseIdempotencyKey(ticket.header);
    if (ticket.busy) throw inUseError();
    const state = this.#state();
    return findReplay(state.idempotency, state.messages, ticket.slot, fingerprint, now);
  }

  /** The journal entry of a new send's record, written with its message before memory changes. */
  entry(slot: string, fingerprint: string, messageId: string): JournalEntry {
    return { c: 'idempotency', id: slot, v: idempotencyRecord(fingerprint, messageId) };
  }

  /** Remembers a new send's record (after its journal entry is written). */
  commit(slot: string, fingerprint: string, messageId: string): void {
    this.#state().idempotency[slot] = idempotencyRecord(fingerprint, messageId);
  }

  /**
   * Ends the hold of {@link begin}. Only the ticket that took the hold ends it: a busy ticket, or one
   * without a key, held nothing, and one taken before {@link clear} (a reset while its body was
   * read) must not free the hold a later request took on the same slot.
   */
  release(ticket: IdempotencyTicket): void {
    if (this.#inFlight.get(ticket.slot) === ticket) this.#inFlight.delete(ticket.slot);
  }

  /** Forgets every hold: the state they were about was replaced (reset, load). */
  clear(): void {
    this.#inFlight.clear();
  }
}
