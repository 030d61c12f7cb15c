import { readRetryAfter } from '../core/rate-limit';
import {
  APIError,
  type APIErrorInit,
  AuthenticationError,
  ConflictError,
  DailyLimitError,
  InternalServerError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from './api-error';

/** The typed error for an error answer; `body` is the parsed JSON (or text) ky read. */
export function errorFromResponse(response: Response, body: unknown): APIError {
  const init = errorInit(response, body);
  const retryAfter = readRetryAfter(response.headers);
  switch (init.status) {
    case 400:
    case 413:
    case 415:
      return new ValidationError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return init.code === 'daily_send_limit_reached'
        ? new DailyLimitError({ ...init, retryAfter })
        : new RateLimitError({ ...init, retryAfter });
  }
  return init.status >= 500 ? new InternalServerError(init) : new APIError(init);
}

function errorInit(response: Response, body: unknown): APIErrorInit {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const requestId =
    (typeof error?.request_id === 'string' ? error.request_id : undefined) ??
    response.headers.get('x-request-id') ??
    undefined;
  return {
    status: response.status,
    code: typeof error?.code === 'string' ? error.code : `http_${response.status}`,
    message:
      typeof error?.message === 'string'
        ? error.message
        : `The API answered ${response.status} ${response.statusText || 'without an error body'}`.trim(),
    requestId,
    details: isRecord(error?.details) ? error.details : {},
    headers: response.headers,
  };
}

/** The `error.code` of an error body, if it has one. */
export function errorCodeOf(body: unknown): string | undefined {
  return isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string'
    ? body.error.code
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
