import type { WebhookEventType } from '@parley/sdk';
import { createDictionary } from '../domain/dictionary';
import type { PreviousSecret } from '../domain/signing-secret';
import type { ChaosKind, EndpointChaos } from '../domain/webhook-chaos';

/** One webhook endpoint as stored (secrets included: deliveries need them to sign). */
export interface EndpointRecord {
  id: string;
  application_id: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  created_at: string;
  /** What the endpoint is for (`parley listen → …`); absent when none was given. */
  description?: string;
  secret: string;
  previous_secret: PreviousSecret | null;
  /** Webhook chaos (`PUT /_emulator/endpoints/{id}/chaos`); absent or null when off. */
  chaos?: EndpointChaos | null;
}

/** One HTTP attempt of a delivery. */
export interface DeliveryAttempt {
  /** Emulator time the attempt was sent, ISO. */
  at: string;
  /** The receiver's HTTP status, or `null` when none came (reset, timeout, refused). */
  status_code: number | null;
  /**
   * Why the attempt failed, or `null` for a 2xx. For a chaos copy: why the receiver's answer was
   * wrong (a forged copy accepted, a duplicate refused), or `null` when it was right.
   */
  error: string | null;
  /** Real time the attempt took. */
  duration_ms: number;
  /**
   * Set on a chaos copy only: which kind it was. Chaos copies never count as attempts of the
   * delivery: its status and retries follow its own attempts alone.
   */
  chaos?: ChaosKind;
}

/** Delivery statuses (DESIGN §3). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt series of one event to one endpoint (spec 2.5), as stored. */
export interface DeliveryRecord {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  endpoint_id: string;
  application_id: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Emulator time of the next attempt, ISO; `null` once delivered or failed. */
  next_attempt_at: string | null;
  created_at: string;
  /** The exact canonical body, kept so retries, replays and restarts resend the same bytes. */
  body: string;
  /** The chaos kinds planned for this delivery when it was built (absent: none). */
  chaos?: ChaosKind[];
}

/** Everything the webhook service keeps; plain JSON, so the store can persist it as is. */
export interface WebhooksState {
  endpoints: Record<string, EndpointRecord>;
  deliveries: Record<string, DeliveryRecord>;
}

/** An empty webhook state, for a fresh emulator or a reset. */
export function createWebhooksState(): WebhooksState {
  return { endpoints: createDictionary(), deliveries: createDictionary() };
}
