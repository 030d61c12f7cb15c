/** The body of every error answer (spec 7). */
export interface ErrorBody {
  error: {
    code: ErrorCode | (string & {});
    message: string;
    /** `req_` + 32 lowercase hex; also in the `X-Request-Id` header. */
    request_id: string;
    /** Always present (spec 7): an empty object when there is nothing to add. */
    details: Record<string, unknown>;
  };
}

/**
 * Every error code of the `/v1` API with its HTTP status, written once (STYLE item 7): the
 * emulator answers with it and the SDK maps answers back through it, so the two cannot drift.
 * Codes only the emulator answers (its control API, its socket guards) are the emulator's own.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_error: 400,
  idempotency_key_required: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  sandbox_only: 403,
  not_found: 404,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  connection_inactive: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  daily_send_limit_reached: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Rate-limit buckets (spec 8). */
export type RateLimitBucket = 'requests' | 'sends' | 'templates';
