import type { DeliveryRecord } from '../store/webhook-state';
import { ownAttemptCount } from './_webhook-views';

/**
 * Deliveries held back by `out_of_order` chaos, per endpoint. Each waits until another delivery
 * to its endpoint has been attempted, so the receiver gets it after a later event (a status
 * `sent` after its `delivered`); its own timer (`OUT_OF_ORDER_HOLD_MS`) sends it if none comes.
 */
export class OutOfOrderHolds {
  readonly #held = new Map<string, Set<string>>();

  /** Whether `delivery` waits for an overtaking one: out of order, not also delayed, never attempted. */
  static holds(delivery: DeliveryRecord): boolean {
    const kinds = delivery.chaos ?? [];
    return (
      delivery.status === 'pending' &&
      kinds.includes('out_of_order') &&
      !kinds.includes('delayed') &&
      ownAttemptCount(delivery) === 0
    );
  }

  /** Holds `delivery` if chaos says so. */
  add(delivery: DeliveryRecord): void {
    if (!OutOfOrderHolds.holds(delivery)) return;
    const held = this.#held.get(delivery.endpoint_id) ?? new Set();
    held.add(delivery.id);
    this.#held.set(delivery.endpoint_id, held);
  }

  /** Stops holding a delivery (its own attempt started). */
  delete(delivery: DeliveryRecord): void {
    this.#held.get(delivery.endpoint_id)?.delete(delivery.id);
  }

  /** The ids held at `overtaking`'s endpoint, other than it, now released. */
  releaseFor(overtaking: DeliveryRecord): string[] {
    const held = this.#held.get(overtaking.endpoint_id);
    if (!held) return [];
    const released = [...held].filter((id) => id !== overtaking.id);
    for (const id of released) held.delete(id);
    return released;
  }

  /** Forgets every hold (before a restore, or on close). */
  clear(): void {
    this.#held.clear();
  }
}
