// Entry `@parley/sdk/webhooks`: everything a receiver needs, without the HTTP client.
export type {
  OpenTelemetryAttributes,
  OpenTelemetryContext,
  OpenTelemetrySpan,
  OpenTelemetrySpanContext,
  OpenTelemetrySpanOptions,
  OpenTelemetryTracer,
} from '../core/open-telemetry';
export { isParleyError, ParleyError } from '../errors/parley-error';
export type {
  ApplicationCreatedEvent,
  ConnectionConnectedEvent,
  ConnectionDisconnectedEvent,
  MessageReceivedEvent,
  MessageStatusUpdatedEvent,
  WebhookEvent,
  WebhookEventType,
  WebhookTestEvent,
} from '../wire/event';
export type { Message, MessageStatus } from '../wire/message';
export type { WebhookHandler } from './create-webhook-handler';
export { createWebhookHandler } from './create-webhook-handler';
export type { WebhookOutcome } from './headers';
export { WEBHOOK_HEADERS, WEBHOOK_OUTCOME_HEADER } from './headers';
export type { NodeWebhookListener, NodeWebhookRequest, NodeWebhookResponse } from './node-listener';
export type { SignedWebhookHeaders, SignWebhookParams } from './sign-webhook';
export { signWebhook } from './sign-webhook';
export type { VerifyWebhookOptions, WebhookHeaders } from './verify-webhook';
export { verifyWebhook } from './verify-webhook';
export type {
  WebhookEventHandlers,
  WebhookHandlerOptions,
  WebhookHandlerSettings,
} from './webhook-handler-options';
export type { WebhookDedupeStore, WebhookStatusStore } from './webhook-stores';
export type { WebhookVerificationReason } from './webhook-verification-error';
export { isWebhookVerificationError, WebhookVerificationError } from './webhook-verification-error';
