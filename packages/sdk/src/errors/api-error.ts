import type { RateLimitBucket } from '../wire/error';
import { isErrorOfKind, markErrorKind, ParleyError } from './parley-error';

/** What every API error answer carries (spec 7), plus the response headers. */
export interface APIErrorInit {
  status: number;
  code: string;
  message: string;
  requestId: string | undefined;
  details: Record<string, unknown>;
  headers: Headers;
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
  readonly status: number;
  /** The API's error code (`ERROR_STATUS` lists them). */
  readonly code: string;
  /** `req_…`, also in `X-Request-Id`: quote it when asking for support. */
  readonly requestId: string | undefined;
  /** `error.details` of the body, e.g. `field` and `reason` of a validation error. */
  readonly details: Record<string, unknown>;
  /** The response headers. */
  readonly headers: Headers;

  constructor(init: APIErrorInit) {
    super(
      `${init.message} (${init.status} ${init.code}${init.requestId ? `, request ${init.requestId}` : ''})`,
    );
    markErrorKind(this, 'APIError');
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
  }
}

/** 401: the API key is missing, unknown or revoked. */
export class AuthenticationError extends APIError {
  constructor(init: APIErrorInit) {
    super(init);
    markErrorKind(this, 'AuthenticationError');
  }
}

/** 403: the key lacks a scope (`details.required_scope`), or the call is sandbox-only. */
export class PermissionError extends APIError {
  constructor(init: APIErrorInit) {
    super(init);
    markErrorKind(this, 'PermissionError');
  }
}

/** 404: unknown id or path. */
export class NotFoundError extends APIError {
  constructor(init: APIErrorInit) {
    super(init);
    markErrorKind(this, 'NotFoundError');
  }
}

/** 400, 413, 415: the request itself is wrong; `details.field` and `details.reason` say where. */
export class ValidationError extends APIError {
  constructor(init: APIErrorInit) {
    super(init);
    markErrorKind(this, 'ValidationError');
  }
}

/** 409: idempotency key reused or in use, connection inactive, agreement required. */
export class ConflictError extends APIError {
  constructor(init: APIErrorInit) {
    super(init);
    markErrorKind(this, 'ConflictError');
  }
}

/** 429 `rate_limited`: a per-minute bucket is exhausted. Retried automatically up to `maxRetryAfter`. */
export class RateLimitError extends APIError {
  /** The exhausted bucket. */
  readonly bucket: RateLimitBucket | undefined;
  readonly limit: number | undefined;
  readonly remaining: number | undefined;
  /** Seconds until the window resets. */
  readonly reset: number | undefined;
  /** Milliseconds to wait before calling again (`Retry-After`). */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter: number | undefined }) {
    super(init);
    markErrorKind(this, 'RateLimitError');
    const bucket = init.details.bucket;
    this.bucket = bucket === 'requests' || bucket === 'sends' || bucket === 'templates' ? bucket : undefined;
    this.limit = count(init.headers, 'ratelimit-limit');
    this.remaining = count(init.headers, 'ratelimit-remaining');
    this.reset = count(init.headers, 'ratelimit-reset');
    this.retryAfter = init.retryAfter;
  }
}

/** 429 `daily_send_limit_reached`: the live workspace's daily cap; never retried. */
export class DailyLimitError extends APIError {
  /** Milliseconds until the next UTC day (`Retry-After`). */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter: number | undefined }) {
    super(init);
    markErrorKind(this, 'DailyLimitError');
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the API failed; already retried `maxRetries` times. */
export class InternalServerError extends APIError {
  constructor(init: APIErrorInit) {
    super(init);
    markErrorKind(this, 'InternalServerError');
  }
}

function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** True for any {@link APIError}, also from another copy of the package. */
export const isAPIError = (value: unknown): value is APIError => isErrorOfKind(value, 'APIError');
/** True for an {@link AuthenticationError}. */
export const isAuthenticationError = (value: unknown): value is AuthenticationError =>
  isErrorOfKind(value, 'AuthenticationError');
/** True for a {@link PermissionError}. */
export const isPermissionError = (value: unknown): value is PermissionError =>
  isErrorOfKind(value, 'PermissionError');
/** True for a {@link NotFoundError}. */
export const isNotFoundError = (value: unknown): value is NotFoundError =>
  isErrorOfKind(value, 'NotFoundError');
/** True for a {@link ValidationError}. */
export const isValidationError = (value: unknown): value is ValidationError =>
  isErrorOfKind(value, 'ValidationError');
/** True for a {@link ConflictError}. */
export const isConflictError = (value: unknown): value is ConflictError =>
  isErrorOfKind(value, 'ConflictError');
/** True for a {@link RateLimitError}. */
export const isRateLimitError = (value: unknown): value is RateLimitError =>
  isErrorOfKind(value, 'RateLimitError');
/** True for a {@link DailyLimitError}. */
export const isDailyLimitError = (value: unknown): value is DailyLimitError =>
  isErrorOfKind(value, 'DailyLimitError');
/** True for an {@link InternalServerError}. */
export const isInternalServerError = (value: unknown): value is InternalServerError =>
  isErrorOfKind(value, 'InternalServerError');
