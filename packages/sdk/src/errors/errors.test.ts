import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { errorReply, useTestServer } from '../_test/test-server';
import { ERROR_STATUS, type ErrorCode } from '../wire/error';
import {
  APIError,
  AuthenticationError,
  ConflictError,
  DailyLimitError,
  InternalServerError,
  isAPIError,
  isAuthenticationError,
  isNotFoundError,
  isRateLimitError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from './api-error';
import { isParleyError, ParleyError } from './parley-error';

const server = useTestServer();

const expectedClass: Record<ErrorCode, new (...args: never[]) => APIError> = {
  invalid_json: ValidationError,
  validation_error: ValidationError,
  idempotency_key_required: ValidationError,
  payload_too_large: ValidationError,
  unsupported_media_type: ValidationError,
  missing_api_key: AuthenticationError,
  invalid_api_key: AuthenticationError,
  insufficient_scope: PermissionError,
  sandbox_only: PermissionError,
  not_found: NotFoundError,
  idempotency_key_reused: ConflictError,
  idempotency_key_in_use: ConflictError,
  connection_inactive: ConflictError,
  rate_limited: RateLimitError,
  daily_send_limit_reached: DailyLimitError,
  internal_error: InternalServerError,
};

describe('error mapping', () => {
  it.each(Object.keys(ERROR_STATUS) as ErrorCode[])('maps %s to its class with every field', async (code) => {
    const reply = errorReply(code, {
      details: { field: 'to', reason: 'format' },
      headers: { 'retry-after': '999999' },
      message: 'Something precise',
    });
    server.on('GET', '/connections', reply);
    const error = await server
      .client({ maxRetries: 0 })
      .connections.list()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(expectedClass[code]);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(ParleyError);
    const apiError = error as APIError;
    const body = reply.body as { error: { request_id: string } };
    expect(apiError).toMatchObject({
      status: ERROR_STATUS[code],
      code,
      requestId: body.error.request_id,
      details: { field: 'to', reason: 'format' },
    });
    expect(apiError.name).toBe(expectedClass[code].name);
    expect(apiError.message).toContain('Something precise');
    expect(apiError.message).toContain(body.error.request_id);
    expect(apiError.headers.get('retry-after')).toBe('999999');
  });

  // Codes only the emulator answers (its control API and socket guards) are not in the `/v1`
  // table: they are classed by their HTTP status, as before they left it.
  const emulatorOnly: [string, number, new (...args: never[]) => APIError][] = [
    ['invalid_url', 400, ValidationError],
    ['headers_too_large', 431, ValidationError],
    ['host_not_allowed', 403, PermissionError],
    ['origin_not_allowed', 403, PermissionError],
    ['agreement_required', 409, ConflictError],
    ['workspace_clock_shared', 409, ConflictError],
  ];
  it.each(emulatorOnly)(
    'maps the emulator-only %s (HTTP %i) by its status',
    async (code, status, errorClass) => {
      expect(Object.keys(ERROR_STATUS)).not.toContain(code);
      server.on('GET', '/connections', {
        status,
        body: { error: { code, message: 'Emulator only', request_id: 'req_1', details: {} } },
      });
      const error = await server
        .client({ maxRetries: 0 })
        .connections.list()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ status, code });
      expect((error as APIError).name).toBe(errorClass.name);
    },
  );

  it('maps an unknown code by HTTP status, and a 5xx without body to InternalServerError', async () => {
    server.on('GET', '/status', {
      status: 418,
      body: { error: { code: 'teapot', message: 'No', request_id: 'req_1' } },
    });
    const teapot = await server
      .client()
      .status.get()
      .catch((caught: unknown) => caught);
    expect(teapot).toBeInstanceOf(APIError);
    expect(teapot).not.toBeInstanceOf(ValidationError);
    expect(teapot).toMatchObject({ status: 418, code: 'teapot' });
    server.on('GET', '/connections', { status: 502, body: 'Bad gateway' });
    const gateway = await server
      .client({ maxRetries: 0 })
      .connections.list()
      .catch((caught: unknown) => caught);
    expect(gateway).toBeInstanceOf(InternalServerError);
    expect(gateway).toMatchObject({ status: 502, code: 'http_502' });
  });

  it('never puts the API key in an error message', async () => {
    server.on('GET', '/status', errorReply('invalid_api_key'));
    const client = server.client();
    const error = (await client.status.get().catch((caught: unknown) => caught)) as Error;
    expect(isAuthenticationError(error)).toBe(true);
    expect(inspect(error, { depth: 10 })).not.toContain('prl_sandbox_');
  });

  it('maps an answer without a JSON error body by status, with the header request id', async () => {
    server.on('GET', '/status', { status: 404, body: 'nope', headers: { 'x-request-id': 'req_abc' } });
    const error = await server
      .client()
      .status.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'http_404', requestId: 'req_abc' });
  });
});

describe('guards', () => {
  it('recognise errors from another copy of the package by marker, not instanceof', () => {
    const kinds = Symbol.for('@parley/sdk.error-kinds');
    const foreign = Object.assign(new Error('from another copy'), {
      [kinds]: ['ParleyError', 'APIError', 'RateLimitError'],
    });
    expect(foreign instanceof RateLimitError).toBe(false);
    expect(isRateLimitError(foreign)).toBe(true);
    expect(isAPIError(foreign)).toBe(true);
    expect(isParleyError(foreign)).toBe(true);
    expect(isNotFoundError(foreign)).toBe(false);
  });

  it('reject plain errors and non-objects', () => {
    expect(isAPIError(new Error('x'))).toBe(false);
    expect(isParleyError(null)).toBe(false);
    expect(isParleyError('APIError')).toBe(false);
  });
});
