import { ERROR_STATUS } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { DomainError } from './domain-error';
import { EMULATOR_ERROR_STATUS } from './error-codes';

describe('DomainError', () => {
  test('code, message, details, and the status from the SDK’s one table', () => {
    const error = new DomainError('insufficient_scope', 'No scope.', { required_scope: 'messages.send' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DomainError');
    expect(error.code).toBe('insufficient_scope');
    expect(error.message).toBe('No scope.');
    expect(error.details).toEqual({ required_scope: 'messages.send' });
    expect(error.status).toBe(403);
    expect(new DomainError('not_found', 'x').details).toBeUndefined();
  });

  test('the emulator-only codes: their statuses, and none of them in the SDK’s /v1 table', () => {
    const own = Object.entries(EMULATOR_ERROR_STATUS).filter(([code]) => !(code in ERROR_STATUS));
    expect(Object.fromEntries(own)).toEqual({
      invalid_url: 400,
      host_not_allowed: 403,
      origin_not_allowed: 403,
      agreement_required: 409,
      workspace_clock_shared: 409,
      headers_too_large: 431,
    });
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(EMULATOR_ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status);
    }
  });

  test.each(Object.entries(EMULATOR_ERROR_STATUS))('%s → %i', (code, status) => {
    expect(new DomainError(code as keyof typeof EMULATOR_ERROR_STATUS, 'x').status).toBe(status);
  });
});
