import type { Environment, Timestamp } from './common';
import type { Connection } from './connection';
import type { Message } from './message';
import type { SandboxEventOverrides } from './sandbox-event-overrides';

interface EventEnvelope<Type extends string, Data> {
  api_version: string;
  created_at: Timestamp;
  data: Data;
  /** `evt_` + 32 lowercase hex; equals the `Parley-Event-Id` header. */
  id: string;
  livemode: boolean;
  type: Type;
}

export type MessageReceivedEvent = EventEnvelope<'message.received', { message: Message }>;
export type MessageStatusUpdatedEvent = EventEnvelope<'message.status_updated', { message: Message }>;
export type ConnectionConnectedEvent = EventEnvelope<'connection.connected', { connection: Connection }>;
export type ConnectionDisconnectedEvent = EventEnvelope<
  'connection.disconnected',
  { connection: Connection }
>;
export type ApplicationCreatedEvent = EventEnvelope<
  'developer.application.created',
  { application_id: string; environment: Environment }
>;
export type WebhookTestEvent = EventEnvelope<'webhook.test', { message: string }>;

/** Every webhook event, discriminated by `type` (spec 6.1). */
export type WebhookEvent =
  | MessageReceivedEvent
  | MessageStatusUpdatedEvent
  | ConnectionConnectedEvent
  | ConnectionDisconnectedEvent
  | ApplicationCreatedEvent
  | WebhookTestEvent;

export type WebhookEventType = WebhookEvent['type'];

export const WEBHOOK_EVENT_TYPES = [
  'message.received',
  'message.status_updated',
  'connection.connected',
  'connection.disconnected',
  'developer.application.created',
  'webhook.test',
] as const satisfies readonly WebhookEventType[];

/** Types `POST /v1/sandbox/events` accepts: all but `developer.application.created` (spec 4.6). */
export const SANDBOX_EVENT_TYPES = /* @__PURE__ */ WEBHOOK_EVENT_TYPES.filter(
  (type): type is Exclude<WebhookEventType, 'developer.application.created'> =>
    type !== 'developer.application.created',
);
export type SandboxEventType = Exclude<WebhookEventType, 'developer.application.created'>;

export interface CreateSandboxEventParams {
  type: SandboxEventType;
  /**
   * Values by dotted path into the event, e.g. `{ "data.message.text": "Where is my order?" }`:
   * only the paths of `SANDBOX_EVENT_OVERRIDES[type]`, each with the right type (else 400
   * `validation_error` with the path as `details.field`).
   */
  overrides?: SandboxEventOverrides;
}

/** `POST /v1/sandbox/events` answer: the queued envelope plus how many endpoints it went to. */
export type SandboxEventResult = WebhookEvent & { deliveries_queued: number };
