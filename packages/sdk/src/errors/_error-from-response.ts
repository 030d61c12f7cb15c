import { readRetryAfter } from '../core/rate-limit';
import { ERROR_STATUS } from '../wire/error';
import {
  APIError,
  AuthenticationError,
  ConflictError,
  DailyLimitError,
  InternalServerError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from './api-error';

const CLASS_BY_STATUS: Record<number, typeof APIError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  413: ValidationError,
  415: ValidationError,
  431: ValidationError,
  429: RateLimitError,
};

/** The typed error for an error answer; `body` is its parsed JSON (undefined when it had none). */
export function errorFromResponse(response: Response, body: unknown): APIError {
  const { status, headers } = response;
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  const field = (name: string) => (typeof error?.[name] === 'string' ? (error[name] as string) : undefined);
  const code = field('code') ?? `http_${status}`;
  // The class follows the shared code → status table (STYLE item 7); unknown codes fall back
  // to the HTTP status, so a proxy's bare 502 is still an InternalServerError.
  const tableStatus = ERROR_STATUS[code as keyof typeof ERROR_STATUS] ?? status;
  const errorClass =
    code === 'daily_send_limit_reached'
      ? DailyLimitError
      : (CLASS_BY_STATUS[tableStatus] ?? (tableStatus >= 500 ? InternalServerError : APIError));
  return new errorClass({
    status,
    code,
    message: field('message') ?? `The API answered ${status} without an error body`,
    requestId: field('request_id') ?? headers.get('x-request-id') ?? undefined,
    details:
      typeof error?.details === 'object' && error.details ? (error.details as Record<string, unknown>) : {},
    headers,
    retryAfter: readRetryAfter(headers),
  });
}

/** The `error.code` of an error body, if it has one. */
export function errorCodeOf(body: unknown): string | undefined {
  return (body as { error?: { code?: string } } | undefined)?.error?.code;
}
