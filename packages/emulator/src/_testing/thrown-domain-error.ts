import { expect } from 'vitest';
import { DomainError } from '../domain/domain-error';

/**
 * The `DomainError` that `run` throws, for a test to assert its code, status, message and details
 * exactly. Fails the test when `run` throws anything else, or nothing.
 */
export function thrownDomainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}
