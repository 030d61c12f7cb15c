import { readRateLimit } from '../core/rate-limit';
import type { RateLimitBucket } from '../wire/error';
import { brandError, ParleyError } from './parley-error';

/** What every API error answer carries (spec 7), plus the response headers. */
export interface APIErrorInit {
  status: number;
  code: string;
  message: string;
  requestId: string | undefined;
  details: Record<string, unknown>;
  headers: Headers;
  /** `Retry-After` in milliseconds. */
  retryAfter?: number | undefined;
}

/**
 * The API answered with an error (spec 7). `code` is the machine-readable reason, e.g.
 * `validation_error`; catch a subclass, or test `code`, to react to one case.
 *
 * @example
 * try { await parley.messages.get(id) } catch (error) { if (isNotFoundError(error)) … }
 */
export class APIError extends ParleyError {
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** The API's error code (`ERROR_STATUS` lists them). */
  declare readonly code: string;
  /** `req_…`, also in `X-Request-Id`: quote it when asking for support. */
  declare readonly requestId: string | undefined;
  /** `error.details` of the body, e.g. `field` and `reason` of a validation error. */
  declare readonly details: Record<string, unknown>;
  /** The response headers. */
  declare readonly headers: Headers;

  constructor({ message, retryAfter, ...fields }: APIErrorInit) {
    super(
      `${message} (${fields.status} ${fields.code}${fields.requestId ? `, request ${fields.requestId}` : ''})`,
    );
    Object.assign(this, fields);
  }
}

/** 401: the API key is missing, unknown or revoked. */
export class AuthenticationError extends APIError {}
/** 403: the key lacks a scope (`details.required_scope`), or the call is sandbox-only. */
export class PermissionError extends APIError {}
/** 404: unknown id or path. */
export class NotFoundError extends APIError {}
/** 400, 413, 415: the request itself is wrong; `details.field` and `details.reason` say where. */
export class ValidationError extends APIError {}
/** 409: idempotency key reused or in use, connection inactive, agreement required. */
export class ConflictError extends APIError {}
/** 5xx: the API failed; already retried `maxRetries` times. */
export class InternalServerError extends APIError {}

/** 429 `rate_limited`: a per-minute bucket is exhausted. Retried automatically up to `maxRetryAfter`. */
export class RateLimitError extends APIError {
  /** The exhausted bucket. */
  declare readonly bucket: RateLimitBucket | undefined;
  declare readonly limit: number | undefined;
  declare readonly remaining: number | undefined;
  /** Seconds until the window resets. */
  declare readonly reset: number | undefined;
  /** Milliseconds to wait before calling again (`Retry-After`). */
  declare readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit) {
    super(init);
    const window = readRateLimit(init.headers);
    this.bucket = init.details.bucket as RateLimitBucket | undefined;
    this.limit = window?.limit;
    this.remaining = window?.remaining;
    this.reset = window?.reset;
    this.retryAfter = init.retryAfter;
  }
}

/** 429 `daily_send_limit_reached`: the live workspace's daily cap; never retried. */
export class DailyLimitError extends APIError {
  /** Milliseconds until the next UTC day (`Retry-After`). */
  declare readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** True for any {@link APIError}, also from another copy of the package. */
export const isAPIError = brandError(APIError, 'APIError');
/** True for an {@link AuthenticationError}. */
export const isAuthenticationError = brandError(AuthenticationError, 'AuthenticationError');
/** True for a {@link PermissionError}. */
export const isPermissionError = brandError(PermissionError, 'PermissionError');
/** True for a {@link NotFoundError}. */
export const isNotFoundError = brandError(NotFoundError, 'NotFoundError');
/** True for a {@link ValidationError}. */
export const isValidationError = brandError(ValidationError, 'ValidationError');
/** True for a {@link ConflictError}. */
export const isConflictError = brandError(ConflictError, 'ConflictError');
/** True for an {@link InternalServerError}. */
export const isInternalServerError = brandError(InternalServerError, 'InternalServerError');
/** True for a {@link RateLimitError}. */
export const isRateLimitError = brandError(RateLimitError, 'RateLimitError');
/** True for a {@link DailyLimitError}. */
export const isDailyLimitError = brandError(DailyLimitError, 'DailyLimitError');
