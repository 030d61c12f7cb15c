import { describe, expect, it } from 'vitest';
import * as sdk from './index';
import * as webhooks from './webhooks/index';

describe('public surface', () => {
  it('of @parley/sdk', () => {
    expect(Object.keys(sdk).sort()).toMatchInlineSnapshot(`
      [
        "APIError",
        "APIPromise",
        "APIUserAbortError",
        "API_VERSION",
        "AuthenticationError",
        "ConfigurationError",
        "ConflictError",
        "ConnectionError",
        "ConnectionsResource",
        "DailyLimitError",
        "ERROR_STATUS",
        "InternalServerError",
        "MAX_CLIENT_REFERENCE_LENGTH",
        "MAX_TEXT_LENGTH",
        "MessageFailedError",
        "MessagesResource",
        "NotFoundError",
        "PHONE_NUMBER_PATTERN",
        "Page",
        "PagePromise",
        "Parley",
        "ParleyError",
        "PermissionError",
        "RateLimitError",
        "SANDBOX_EVENT_OVERRIDES",
        "SANDBOX_EVENT_TYPES",
        "SCOPES",
        "SDK_VERSION",
        "SandboxEventsResource",
        "SandboxResource",
        "StatusResource",
        "TimeoutError",
        "ValidationError",
        "WEBHOOK_EVENT_TYPES",
        "WEBHOOK_HEADERS",
        "WEBHOOK_OUTCOME_HEADER",
        "WaitForTimeoutError",
        "WebhookVerificationError",
        "canonicalJson",
        "characterCount",
        "createWebhookHandler",
        "isAPIError",
        "isAPIUserAbortError",
        "isAuthenticationError",
        "isConfigurationError",
        "isConflictError",
        "isConnectionError",
        "isDailyLimitError",
        "isInternalServerError",
        "isMessageFailedError",
        "isNotFoundError",
        "isParleyError",
        "isPermissionError",
        "isPhoneNumber",
        "isRateLimitError",
        "isTimeoutError",
        "isValidationError",
        "isWaitForTimeoutError",
        "isWebhookVerificationError",
        "sandboxEventOverrideProblem",
        "signWebhook",
        "verifyWebhook",
      ]
    `);
  });

  it('of @parley/sdk/webhooks: verification and the receiver, no client', () => {
    expect(Object.keys(webhooks).sort()).toMatchInlineSnapshot(`
      [
        "ParleyError",
        "WEBHOOK_HEADERS",
        "WEBHOOK_OUTCOME_HEADER",
        "WebhookVerificationError",
        "createWebhookHandler",
        "isParleyError",
        "isWebhookVerificationError",
        "signWebhook",
        "verifyWebhook",
      ]
    `);
  });

  it('shares the webhook functions between both entries', () => {
    expect(webhooks.verifyWebhook).toBe(sdk.verifyWebhook);
    expect(webhooks.WebhookVerificationError).toBe(sdk.WebhookVerificationError);
    expect(webhooks.createWebhookHandler).toBe(sdk.createWebhookHandler);
  });
});
