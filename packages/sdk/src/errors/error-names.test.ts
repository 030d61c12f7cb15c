import { describe, expect, it } from 'vitest';
import * as webhookErrors from '../webhooks/webhook-verification-error';
import { WebhookVerificationError } from '../webhooks/webhook-verification-error';
import type { Message } from '../wire/message';
import * as abortErrors from './abort-error';
import { APIUserAbortError } from './abort-error';
import * as apiErrors from './api-error';
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
import * as configurationErrors from './configuration-error';
import { ConfigurationError } from './configuration-error';
import * as connectionErrors from './connection-error';
import { ConnectionError, TimeoutError } from './connection-error';
import * as parleyErrors from './parley-error';
import { ParleyError } from './parley-error';
import * as waitErrors from './wait-errors';
import { MessageFailedError, WaitForTimeoutError } from './wait-errors';

/** Every guard by the kind it recognises: `isTimeoutError` → `TimeoutError`. */
const guards = Object.fromEntries(
  Object.entries({
    ...parleyErrors,
    ...apiErrors,
    ...abortErrors,
    ...configurationErrors,
    ...connectionErrors,
    ...waitErrors,
    ...webhookErrors,
  }).flatMap(([name, value]) =>
    name.startsWith('is') ? [[name.slice(2), value as (value: unknown) => boolean]] : [],
  ),
);
const KINDS = Symbol.for('@parley/sdk.error-kinds');
const init: APIErrorInit = {
  status: 429,
  code: 'rate_limited',
  message: 'Slow down',
  requestId: 'req_1',
  details: { bucket: 'sends' },
  headers: new Headers({ 'ratelimit-limit': '30', 'ratelimit-remaining': '0', 'ratelimit-reset': '12' }),
  retryAfter: 12_000,
};
const message = { id: 'm1', status: 'failed', error: null } as unknown as Message;

// Each class, an instance, and the kinds recorded for it (its own last, after its parents').
const errors: [string, Error, string[]][] = [
  ['ParleyError', new ParleyError('x'), []],
  ['APIError', new APIError(init), ['ParleyError']],
  ['AuthenticationError', new AuthenticationError(init), ['ParleyError', 'APIError']],
  ['PermissionError', new PermissionError(init), ['ParleyError', 'APIError']],
  ['NotFoundError', new NotFoundError(init), ['ParleyError', 'APIError']],
  ['ValidationError', new ValidationError(init), ['ParleyError', 'APIError']],
  ['ConflictError', new ConflictError(init), ['ParleyError', 'APIError']],
  ['InternalServerError', new InternalServerError(init), ['ParleyError', 'APIError']],
  ['RateLimitError', new RateLimitError(init), ['ParleyError', 'APIError']],
  ['DailyLimitError', new DailyLimitError(init), ['ParleyError', 'APIError']],
  ['ConfigurationError', new ConfigurationError('x'), ['ParleyError']],
  ['ConnectionError', new ConnectionError('x'), ['ParleyError']],
  ['TimeoutError', new TimeoutError('x'), ['ParleyError', 'ConnectionError']],
  ['APIUserAbortError', new APIUserAbortError('why'), ['ParleyError']],
  ['MessageFailedError', new MessageFailedError(message), ['ParleyError']],
  ['WaitForTimeoutError', new WaitForTimeoutError('x', undefined), ['ParleyError']],
  ['WebhookVerificationError', new WebhookVerificationError('signature_mismatch', 'x'), ['ParleyError']],
];

describe('every SDK error', () => {
  it.each(errors)('%s has its name and kinds, and only its own guards accept it', (name, error, parents) => {
    expect(error.name).toBe(name);
    expect(error.constructor.name).toBe(name);
    expect((error as { [KINDS]?: string[] })[KINDS]).toEqual([...parents, name]);
    expect(Object.keys(guards)).toHaveLength(errors.length);
    for (const [kind, guard] of Object.entries(guards)) {
      expect(guard(error), kind).toBe([...parents, name].includes(kind));
    }
  });

  it('names itself in its stack and when printed', () => {
    expect(String(new TimeoutError('GET /status timed out'))).toBe('TimeoutError: GET /status timed out');
    expect(new ConnectionError('down').stack).toMatch(/^ConnectionError: down\n/);
  });
});

describe('error messages and fields', () => {
  it('APIError: message, then status, code and request id', () => {
    const error = new APIError(init);
    expect(error.message).toBe('Slow down (429 rate_limited, request req_1)');
    expect(new APIError({ ...init, requestId: undefined }).message).toBe('Slow down (429 rate_limited)');
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      requestId: 'req_1',
      details: init.details,
    });
    expect(error.headers).toBe(init.headers);
  });

  it('RateLimitError: bucket, window and Retry-After', () => {
    expect(new RateLimitError(init)).toMatchObject({
      bucket: 'sends',
      limit: 30,
      remaining: 0,
      reset: 12,
      retryAfter: 12_000,
    });
    const bare = new RateLimitError({ ...init, details: {}, headers: new Headers(), retryAfter: undefined });
    expect([bare.bucket, bare.limit, bare.remaining, bare.reset, bare.retryAfter]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('DailyLimitError: Retry-After', () => {
    expect(new DailyLimitError(init).retryAfter).toBe(12_000);
  });

  it('APIUserAbortError: a fixed message, the signal reason as cause', () => {
    const reason = new Error('stop');
    const error = new APIUserAbortError(reason);
    expect(error.message).toBe('The operation was aborted by its signal');
    expect(error.cause).toBe(reason);
  });

  it('MessageFailedError: the id, and the code and text of the failure when known', () => {
    expect(new MessageFailedError(message).message).toBe('Message m1 failed');
    const failed = { ...message, error: { code: 'recipient_unreachable', message: 'Phone off' } } as Message;
    const error = new MessageFailedError(failed);
    expect(error.message).toBe('Message m1 failed: recipient_unreachable (Phone off)');
    expect(error.failedMessage).toBe(failed);
  });

  it('WaitForTimeoutError and WebhookVerificationError keep what they were given', () => {
    const lastSeen = { id: 'm1' } as never;
    expect(new WaitForTimeoutError('late', lastSeen)).toMatchObject({ message: 'late', lastSeen });
    expect(new WebhookVerificationError('missing_header', 'No id')).toMatchObject({
      reason: 'missing_header',
      message: 'No id',
    });
  });
});
