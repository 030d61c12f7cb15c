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

/** What a refusal tells the caller (status, code, message, details), for one exact `toEqual`. */
export function refusalOf(run: () => unknown): Pick<DomainError, 'status' | 'code' | 'message' | 'details'> {
  const error = thrownDomainError(run);
  return { status: error.status, code: error.code, message: error.message, details: error.details };
}
