import { describe, expect, test } from 'vitest';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import { asObject, controlBody, invalid, isObject } from './input-checks';

describe('input checks', () => {
  test('invalid throws 400 validation_error with the field and the reason', () => {
    const error = thrownDomainError(() => invalid('name', 'required', 'name is required.'));
    expect(error.code).toBe('validation_error');
    expect(error.message).toBe('name is required.');
    expect(error.details).toEqual({ field: 'name', reason: 'required' });
  });

  test('isObject: objects only, not null, arrays or scalars', () => {
    expect(isObject({})).toBe(true);
    expect(isObject(Object.create(null))).toBe(true);
    for (const value of [null, undefined, [], [1], 'text', 42, true]) expect(isObject(value)).toBe(false);
  });

  test('asObject returns the object itself', () => {
    const body = { name: 'x' };
    expect(asObject(body)).toBe(body);
  });

  test('asObject refuses anything else on field body, with the default or the given reason and message', () => {
    for (const value of [null, undefined, [], 'text', 42]) {
      expect(thrownDomainError(() => asObject(value)).details).toEqual({
        field: 'body',
        reason: 'invalid_type',
      });
    }
    expect(thrownDomainError(() => asObject([])).message).toBe('The body must be a JSON object.');
    const custom = thrownDomainError(() => asObject(7, 'not_an_object', 'Send an object.'));
    expect(custom.details).toEqual({ field: 'body', reason: 'not_an_object' });
    expect(custom.message).toBe('Send an object.');
  });

  test('controlBody: no body is an empty one; an object is itself; anything else is refused on field body', () => {
    expect(controlBody(undefined)).toEqual({});
    const body = { name: 'x' };
    expect(controlBody(body)).toBe(body);
    for (const value of [null, [], 'text', 0]) {
      const error = thrownDomainError(() => controlBody(value));
      expect(error.code).toBe('validation_error');
      expect(error.message).toBe('The body must be a JSON object.');
      expect(error.details).toEqual({ field: 'body', reason: 'invalid_type' });
    }
  });
});
