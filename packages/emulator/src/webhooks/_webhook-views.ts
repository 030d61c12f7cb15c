import type { WebhookEventType } from '@parley/sdk';
import type { ChaosKind } from '../domain/webhook-chaos';
import type { DeliveryAttempt, DeliveryRecord, DeliveryStatus, EndpointRecord } from '../store/webhook-state';

/** An endpoint as the control API shows it (no secret). */
export interface EndpointView {
  id: string;
  application_id: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  created_at: string;
  /** What the endpoint is for; absent when it has none. */
  description?: string;
}

/** A delivery as the control API shows it (DESIGN §4). */
export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  /** The chaos kinds this delivery got (absent: none); its chaos copies are the attempts with `chaos`. */
  chaos?: ChaosKind[];
}

/** The public form of an endpoint: everything but its secrets. */
export function toEndpointView(endpoint: EndpointRecord): EndpointView {
  const { id, application_id, url, events, active, created_at, description } = endpoint;
  return {
    id,
    application_id,
    url,
    events: [...events],
    active,
    created_at,
    ...(description === undefined ? {} : { description }),
  };
}

/** The public form of a delivery: the stored body and application stay inside. */
export function toDeliveryView(delivery: DeliveryRecord): DeliveryView {
  const { id, event_id, event_type, endpoint_id, status, attempts, next_attempt_at } = delivery;
  return {
    id,
    event_id,
    event_type,
    endpoint_id,
    status,
    attempts: attempts.map((attempt) => ({ ...attempt })),
    next_attempt_at,
    ...(delivery.chaos?.length ? { chaos: [...delivery.chaos] } : {}),
  };
}

/** The attempts of a delivery that count for its status and retries: all but its chaos copies. */
export function ownAttemptCount(delivery: DeliveryRecord): number {
  let count = 0;
  for (const attempt of delivery.attempts) if (attempt.chaos === undefined) count++;
  return count;
}
