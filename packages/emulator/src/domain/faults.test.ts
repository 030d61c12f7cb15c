import { describe, expect, test } from 'vitest';
import { type FaultTarget, faultMatches, parseFaultInput } from './faults';

const KEY_ID = 'a7e1c0de-0000-4000-8000-000000000003';
const send: FaultTarget = {
  method: 'POST',
  path: '/v1/messages',
  key: 'prl_sandbox_parleyEmulatorDefaultSandboxKey1',
  keyId: KEY_ID,
};

describe('parseFaultInput', () => {
  test('defaults: any method, path and key, once', () => {
    expect(parseFaultInput({ fault: { status: 503, code: 'service_unavailable' } })).toEqual({
      method: null,
      path: null,
      key_id: null,
      key_prefix: null,
      times: 1,
      fault: { status: 503, code: 'service_unavailable' },
    });
  });

  test('every field, each kind of fault; the method is upper-cased', () => {
    const base = { method: 'post', path: '/v1/messages', key_id: KEY_ID, times: 3 };
    expect(
      parseFaultInput({ ...base, fault: { status: 429, code: 'rate_limited', retry_after: 2 } }),
    ).toEqual({
      method: 'POST',
      path: '/v1/messages',
      key_id: KEY_ID,
      key_prefix: null,
      times: 3,
      fault: { status: 429, code: 'rate_limited', retry_after: 2 },
    });
    expect(parseFaultInput({ fault: { hang: true } }).fault).toEqual({ hang: true });
    expect(parseFaultInput({ fault: { drop: true } }).fault).toEqual({ drop: true });
    expect(parseFaultInput({ fault: { delay_ms: 250 } }).fault).toEqual({ delay_ms: 250 });
    expect(parseFaultInput({ key_prefix: 'prl_sandbox_parl', fault: { drop: true } }).key_prefix).toBe(
      'prl_sandbox_parl',
    );
  });

  test.each([
    [[], 'body', 'invalid_type'],
    [{}, 'fault', 'required'],
    [{ fault: 'hang' }, 'fault', 'invalid_type'],
    [{ fault: {} }, 'fault', 'invalid_value'],
    [{ fault: { hang: true, drop: true } }, 'fault', 'invalid_value'],
    [{ fault: { hang: false } }, 'fault.hang', 'invalid_value'],
    [{ fault: { drop: 1 } }, 'fault.drop', 'invalid_value'],
    [{ fault: { delay_ms: 0 } }, 'fault.delay_ms', 'invalid_value'],
    [{ fault: { delay_ms: 600_001 } }, 'fault.delay_ms', 'invalid_value'],
    [{ fault: { delay_ms: 1.5 } }, 'fault.delay_ms', 'invalid_value'],
    [{ fault: { status: 200, code: 'ok' } }, 'fault.status', 'invalid_value'],
    [{ fault: { status: 600, code: 'x' } }, 'fault.status', 'invalid_value'],
    [{ fault: { status: 503 } }, 'fault', 'invalid_value'],
    [{ fault: { status: 503, code: 'Bad Code' } }, 'fault.code', 'invalid_value'],
    [{ fault: { status: 429, code: 'rate_limited', retry_after: -1 } }, 'fault.retry_after', 'invalid_value'],
    [{ fault: { status: 429, code: 'rate_limited', extra: 1 } }, 'fault', 'invalid_value'],
    [{ times: 0, fault: { drop: true } }, 'times', 'invalid_value'],
    [{ times: 10_001, fault: { drop: true } }, 'times', 'invalid_value'],
    [{ method: 'GET /', fault: { drop: true } }, 'method', 'invalid_value'],
    [{ path: '/messages', fault: { drop: true } }, 'path', 'invalid_value'],
    [{ path: '/v1/messages?x=1', fault: { drop: true } }, 'path', 'invalid_value'],
    [{ key_id: 'abc', fault: { drop: true } }, 'key_id', 'invalid_value'],
    [{ key_prefix: 'sk_live', fault: { drop: true } }, 'key_prefix', 'invalid_value'],
    [{ key_id: KEY_ID, key_prefix: 'prl_sandbox_', fault: { drop: true } }, 'key_prefix', 'not_allowed'],
    [{ status: 503, fault: { drop: true } }, 'status', 'unknown_field'],
  ])('%j → 400 validation_error on %s (%s)', (input, field, reason) => {
    expect(() => parseFaultInput(input)).toThrowError(
      expect.objectContaining({ code: 'validation_error', status: 400, details: { field, reason } }),
    );
  });
});

describe('faultMatches', () => {
  const match = (overrides: object) => ({
    method: null,
    path: null,
    key_id: null,
    key_prefix: null,
    ...overrides,
  });

  test('no criteria: every request', () => {
    expect(faultMatches(match({}), send)).toBe(true);
    expect(
      faultMatches(match({}), { method: 'GET', path: '/v1/status', key: undefined, keyId: undefined }),
    ).toBe(true);
  });

  test('method and exact path; a trailing slash is the same path', () => {
    expect(faultMatches(match({ method: 'POST', path: '/v1/messages' }), send)).toBe(true);
    expect(faultMatches(match({ method: 'GET', path: '/v1/messages' }), send)).toBe(false);
    expect(faultMatches(match({ path: '/v1/messages/' }), send)).toBe(true);
    expect(faultMatches(match({ path: '/v1/status' }), send)).toBe(false);
    expect(faultMatches(match({ method: 'POST' }), { ...send, method: 'post' })).toBe(true);
  });

  test('* stands for exactly one segment', () => {
    const get = { ...send, method: 'GET', path: '/v1/messages/5f0c7f4e-1111-4111-8111-111111111111' };
    expect(faultMatches(match({ path: '/v1/messages/*' }), get)).toBe(true);
    expect(faultMatches(match({ path: '/v1/messages/*' }), send)).toBe(false);
    expect(faultMatches(match({ path: '/v1/*' }), get)).toBe(false);
    expect(
      faultMatches(match({ path: '/v1/connections/*/templates' }), {
        ...get,
        path: '/v1/connections/x/templates',
      }),
    ).toBe(true);
  });

  test('key_id: only that key; key_prefix: keys starting with it; no key matches neither', () => {
    expect(faultMatches(match({ key_id: KEY_ID }), send)).toBe(true);
    expect(faultMatches(match({ key_id: 'a7e1c0de-0000-4000-8000-000000000009' }), send)).toBe(false);
    expect(faultMatches(match({ key_prefix: 'prl_sandbox_parl' }), send)).toBe(true);
    expect(faultMatches(match({ key_prefix: 'prl_live_' }), send)).toBe(false);
    const anonymous = { ...send, key: undefined, keyId: undefined };
    expect(faultMatches(match({ key_id: KEY_ID }), anonymous)).toBe(false);
    expect(faultMatches(match({ key_prefix: 'prl_' }), anonymous)).toBe(false);
  });
});
