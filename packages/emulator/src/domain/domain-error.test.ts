import { ERROR_STATUS } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { DomainError } from './domain-error';

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

  test.each(Object.entries(ERROR_STATUS))('%s → %i', (code, status) => {
    expect(new DomainError(code as keyof typeof ERROR_STATUS, 'x').status).toBe(status);
  });
});
