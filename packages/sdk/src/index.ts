// @parley/sdk: the typed client, its errors, webhook verification and the wire types.
export { Parley } from './client';
export type { APIResponse } from './core/api-promise';
export { APIPromise } from './core/api-promise';
export type { FetchFunction, ParleyOptions } from './core/client-options';
export type { Logger, LogLevel } from './core/logger';
export type {
  OpenTelemetryAttributes,
  OpenTelemetryContext,
  OpenTelemetryHistogram,
  OpenTelemetryMeter,
  OpenTelemetrySpan,
  OpenTelemetrySpanContext,
  OpenTelemetrySpanOptions,
  OpenTelemetryTracer,
  TelemetryOptions,
} from './core/open-telemetry';
export { Page, PagePromise } from './core/page';
export type { RateLimitInfo } from './core/rate-limit';
export type { RequestEvent, RequestHooks, RetryEvent } from './core/request-hooks';
export type { RequestHeaders, RequestOptions } from './core/request-options';
export { APIUserAbortError, isAPIUserAbortError } from './errors/abort-error';
export type { APIErrorInit } from './errors/api-error';
export {
  APIError,
  AuthenticationError,
  ConflictError,
  DailyLimitError,
  InternalServerError,
  isAPIError,
  isAuthenticationError,
  isConflictError,
  isDailyLimitError,
  isInternalServerError,
  isNotFoundError,
  isPermissionError,
  isRateLimitError,
  isValidationError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from './errors/api-error';
export { ConfigurationError, isConfigurationError } from './errors/configuration-error';
export { ConnectionError, isConnectionError, isTimeoutError, TimeoutError } from './errors/connection-error';
export { isParleyError, ParleyError } from './errors/parley-error';
export {
  isMessageFailedError,
  isWaitForTimeoutError,
  MessageFailedError,
  WaitForTimeoutError,
} from './errors/wait-errors';
export { ConnectionsResource } from './resources/connections';
export type { SendMessageOptions, WaitForOptions, WaitForStatus } from './resources/messages';
export { MessagesResource } from './resources/messages';
export { SandboxEventsResource, SandboxResource } from './resources/sandbox-events';
export { StatusResource } from './resources/status';
export { SDK_VERSION } from './version';
export { canonicalJson } from './webhooks/canonical-json';
export type { WebhookHandler } from './webhooks/create-webhook-handler';
export { createWebhookHandler } from './webhooks/create-webhook-handler';
export type { WebhookOutcome } from './webhooks/headers';
export { WEBHOOK_HEADERS, WEBHOOK_OUTCOME_HEADER } from './webhooks/headers';
export type { NodeWebhookListener, NodeWebhookRequest, NodeWebhookResponse } from './webhooks/node-listener';
export type { SignedWebhookHeaders, SignWebhookParams } from './webhooks/sign-webhook';
export { signWebhook } from './webhooks/sign-webhook';
export type { VerifyWebhookOptions, WebhookHeaders } from './webhooks/verify-webhook';
export { verifyWebhook } from './webhooks/verify-webhook';
export type {
  WebhookEventHandlers,
  WebhookHandlerOptions,
  WebhookHandlerSettings,
} from './webhooks/webhook-handler-options';
export type { WebhookDedupeStore, WebhookStatusStore } from './webhooks/webhook-stores';
export type { WebhookVerificationReason } from './webhooks/webhook-verification-error';
export { isWebhookVerificationError, WebhookVerificationError } from './webhooks/webhook-verification-error';
export type { Environment, ListEnvelope, ListParams, Scope, Timestamp } from './wire/common';
export { API_VERSION, SCOPES } from './wire/common';
export type { Connection, ConnectionStatus, Template } from './wire/connection';
export type { ErrorBody, ErrorCode, RateLimitBucket } from './wire/error';
export { ERROR_STATUS } from './wire/error';
export type {
  ApplicationCreatedEvent,
  ConnectionConnectedEvent,
  ConnectionDisconnectedEvent,
  CreateSandboxEventParams,
  MessageReceivedEvent,
  MessageStatusUpdatedEvent,
  SandboxEventResult,
  SandboxEventType,
  WebhookEvent,
  WebhookEventType,
  WebhookTestEvent,
} from './wire/event';
export { SANDBOX_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './wire/event';
export {
  characterCount,
  isPhoneNumber,
  MAX_CLIENT_REFERENCE_LENGTH,
  MAX_TEXT_LENGTH,
  PHONE_NUMBER_PATTERN,
} from './wire/input-rules';
export type {
  Message,
  MessageError,
  MessageErrorCode,
  MessageStatus,
  OutboundMessageStatus,
  SendMessageParams,
  SendTemplateMessageParams,
  SendTextMessageParams,
} from './wire/message';
export type {
  SandboxEventOverrideProblem,
  SandboxEventOverrideRule,
  SandboxEventOverrides,
} from './wire/sandbox-event-overrides';
export { SANDBOX_EVENT_OVERRIDES, sandboxEventOverrideProblem } from './wire/sandbox-event-overrides';
export type { Status } from './wire/status';
