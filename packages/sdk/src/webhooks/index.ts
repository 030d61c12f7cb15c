// Entry `@parley/sdk/webhooks`: everything a receiver needs, without the HTTP client.
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
export { WEBHOOK_HEADERS } from './headers';
export type { SignedWebhookHeaders, SignWebhookParams } from './sign-webhook';
export { signWebhook } from './sign-webhook';
export type { VerifyWebhookOptions, WebhookHeaders } from './verify-webhook';
export { verifyWebhook } from './verify-webhook';
export type { WebhookVerificationReason } from './webhook-verification-error';
export { isWebhookVerificationError, WebhookVerificationError } from './webhook-verification-error';
