import type { ChaosKind } from '../domain/webhook-chaos';
import type { DeliveryRecord } from '../store/webhook-state';

/**
 * What the webhook service did that its owner applies: `changed` when endpoints or deliveries
 * changed (a snapshot should catch it), `delivery` when a delivery was queued or one of its
 * attempts recorded (the activity feed), `chaos` when that attempt was a chaos copy.
 */
export type WebhookOutcome =
  | { readonly kind: 'changed' }
  | { readonly kind: 'delivery'; readonly delivery: DeliveryRecord; readonly chaos?: ChaosKind };

/** The one `changed` outcome: shared, so telling it allocates nothing. */
export const CHANGED: WebhookOutcome = Object.freeze({ kind: 'changed' });

/**
 * The single channel the webhook service's outcomes go out on, to one owner (the core, which keeps
 * the data dir and the activity feed). Deliveries finish on timers, long after the call that
 * queued them returned, so their outcomes cannot be return values: they are told here, typed, in
 * the order they happen. Until an owner takes it (a service in a unit test), outcomes are dropped.
 */
export class WebhookOutcomes {
  #owner: ((outcome: WebhookOutcome) => void) | undefined;

  /** Makes `apply` the owner; a channel has one owner, so a second is refused. */
  own(apply: (outcome: WebhookOutcome) => void): void {
    if (this.#owner) throw new Error('These webhook outcomes have an owner already.');
    this.#owner = apply;
  }

  /** Tells the owner an outcome. */
  tell(outcome: WebhookOutcome): void {
    this.#owner?.(outcome);
  }
}
