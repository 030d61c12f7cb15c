import { describe, expect, test } from 'vitest';
import { refusalOf } from '../_testing/thrown-domain-error';
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

  test('null criteria are the same as leaving them out', () => {
    expect(
      parseFaultInput({
        method: null,
        path: null,
        key_id: null,
        key_prefix: null,
        times: null,
        fault: { drop: true },
      }),
    ).toEqual({ method: null, path: null, key_id: null, key_prefix: null, times: 1, fault: { drop: true } });
  });

  test('key_prefix alone, and a key id in upper case is kept lower-cased', () => {
    expect(parseFaultInput({ key_prefix: 'prl_sandbox_AbCd', times: 2, fault: { hang: true } })).toEqual({
      method: null,
      path: null,
      key_id: null,
      key_prefix: 'prl_sandbox_AbCd',
      times: 2,
      fault: { hang: true },
    });
    expect(parseFaultInput({ key_id: KEY_ID.toUpperCase(), fault: { drop: true } }).key_id).toBe(KEY_ID);
  });

  test('limits are inclusive: times 1–10000, delay_ms 1–600000, status 400–599, retry_after 0–86400', () => {
    expect(parseFaultInput({ times: 1, fault: { drop: true } }).times).toBe(1);
    expect(parseFaultInput({ times: 10_000, fault: { drop: true } }).times).toBe(10_000);
    expect(parseFaultInput({ fault: { delay_ms: 1 } }).fault).toEqual({ delay_ms: 1 });
    expect(parseFaultInput({ fault: { delay_ms: 600_000 } }).fault).toEqual({ delay_ms: 600_000 });
    expect(parseFaultInput({ fault: { status: 400, code: 'bad_request' } }).fault).toEqual({
      status: 400,
      code: 'bad_request',
    });
    expect(parseFaultInput({ fault: { status: 599, code: 'x' } }).fault).toEqual({ status: 599, code: 'x' });
    expect(parseFaultInput({ fault: { status: 429, code: 'rate_limited', retry_after: 0 } }).fault).toEqual({
      status: 429,
      code: 'rate_limited',
      retry_after: 0,
    });
    expect(
      parseFaultInput({ fault: { status: 429, code: 'rate_limited', retry_after: 86_400 } }).fault,
    ).toEqual({ status: 429, code: 'rate_limited', retry_after: 86_400 });
  });

  test('method: 1 to 16 letters; path: /v1 and any number of segments, * among them', () => {
    expect(parseFaultInput({ method: 'ABCDEFGHIJKLMNOP', fault: { drop: true } }).method).toBe(
      'ABCDEFGHIJKLMNOP',
    );
    expect(parseFaultInput({ method: 'get', fault: { drop: true } }).method).toBe('GET');
    for (const path of ['/v1', '/v1/', '/v1/messages', '/v1/messages/*', '/v1/connections/*/templates/']) {
      expect(parseFaultInput({ path, fault: { drop: true } }).path).toBe(path);
    }
  });

  test('key_prefix: prl_ and 1 to 60 more letters, digits or underscores; fault.code: up to 64 characters', () => {
    const longest = `prl_${'a'.repeat(60)}`;
    expect(parseFaultInput({ key_prefix: longest, fault: { drop: true } }).key_prefix).toBe(longest);
    expect(parseFaultInput({ key_prefix: 'prl_x', fault: { drop: true } }).key_prefix).toBe('prl_x');
    const code = `e${'x'.repeat(63)}`;
    expect(parseFaultInput({ fault: { status: 500, code } }).fault).toEqual({ status: 500, code });
  });

  const METHOD = 'method must be an HTTP method such as "POST".';
  const PATH = 'path must be a /v1 path such as "/v1/messages" ("*" for one segment).';
  const KEY_ID_RULE = 'key_id must be the id (UUID) of an API key.';
  const KEY_PREFIX = 'key_prefix must be the start of an API key, e.g. "prl_sandbox_AbCd".';
  const ONE_OF =
    'fault must be one of {"status","code","retry_after"?}, {"hang":true}, {"drop":true}, {"delay_ms"}.';
  const STATUS = 'fault.status must be an HTTP error status from 400 to 599.';
  const CODE = 'fault.code must be an error code such as "rate_limited".';
  const DELAY = 'fault.delay_ms must be a whole number from 1 to 600000.';
  const RETRY = 'fault.retry_after must be whole seconds from 0 to 86400.';
  const TIMES = 'times must be a whole number from 1 to 10000.';
  const drop = { drop: true };

  test.each([
    [[], 'body', 'invalid_type', 'The body must be a JSON object.'],
    [null, 'body', 'invalid_type', 'The body must be a JSON object.'],
    [{}, 'fault', 'required', 'fault is required.'],
    [{ fault: 'hang' }, 'fault', 'invalid_type', 'fault must be an object.'],
    [{ fault: {} }, 'fault', 'invalid_value', ONE_OF],
    [{ fault: { hang: true, drop: true } }, 'fault', 'invalid_value', ONE_OF],
    [{ fault: { hang: false } }, 'fault.hang', 'invalid_value', 'fault.hang must be true.'],
    [{ fault: { drop: 1 } }, 'fault.drop', 'invalid_value', 'fault.drop must be true.'],
    [{ fault: { delay_ms: 0 } }, 'fault.delay_ms', 'invalid_value', DELAY],
    [{ fault: { delay_ms: 600_001 } }, 'fault.delay_ms', 'invalid_value', DELAY],
    [{ fault: { delay_ms: 1.5 } }, 'fault.delay_ms', 'invalid_value', DELAY],
    [{ fault: { delay_ms: '250' } }, 'fault.delay_ms', 'invalid_value', DELAY],
    [{ fault: { status: 200, code: 'ok' } }, 'fault.status', 'invalid_value', STATUS],
    [{ fault: { status: 399, code: 'x' } }, 'fault.status', 'invalid_value', STATUS],
    [{ fault: { status: 600, code: 'x' } }, 'fault.status', 'invalid_value', STATUS],
    [{ fault: { status: 503 } }, 'fault', 'invalid_value', ONE_OF],
    [{ fault: { status: 503, code: 'Bad Code' } }, 'fault.code', 'invalid_value', CODE],
    [{ fault: { status: 503, code: 'rate_limited!' } }, 'fault.code', 'invalid_value', CODE],
    [{ fault: { status: 503, code: `e${'x'.repeat(64)}` } }, 'fault.code', 'invalid_value', CODE],
    [{ fault: { status: 503, code: 7 } }, 'fault.code', 'invalid_value', CODE],
    [
      { fault: { status: 429, code: 'rate_limited', retry_after: -1 } },
      'fault.retry_after',
      'invalid_value',
      RETRY,
    ],
    [
      { fault: { status: 429, code: 'rate_limited', retry_after: 86_401 } },
      'fault.retry_after',
      'invalid_value',
      RETRY,
    ],
    [{ fault: { status: 429, code: 'rate_limited', extra: 1 } }, 'fault', 'invalid_value', ONE_OF],
    [{ times: 0, fault: drop }, 'times', 'invalid_value', TIMES],
    [{ times: 10_001, fault: drop }, 'times', 'invalid_value', TIMES],
    [{ times: 2.5, fault: drop }, 'times', 'invalid_value', TIMES],
    [{ method: 'GET /', fault: drop }, 'method', 'invalid_value', METHOD],
    [{ method: 'X-GET', fault: drop }, 'method', 'invalid_value', METHOD],
    [{ method: 'ABCDEFGHIJKLMNOPQ', fault: drop }, 'method', 'invalid_value', METHOD],
    [{ method: '', fault: drop }, 'method', 'invalid_value', METHOD],
    [{ method: 42, fault: drop }, 'method', 'invalid_value', METHOD],
    [{ path: '/messages', fault: drop }, 'path', 'invalid_value', PATH],
    [{ path: '/api/v1/messages', fault: drop }, 'path', 'invalid_value', PATH],
    [{ path: '/v1/messages?x=1', fault: drop }, 'path', 'invalid_value', PATH],
    [{ path: '/v1//messages', fault: drop }, 'path', 'invalid_value', PATH],
    [{ key_id: 'abc', fault: drop }, 'key_id', 'invalid_value', KEY_ID_RULE],
    [{ key_id: `x${KEY_ID}`, fault: drop }, 'key_id', 'invalid_value', KEY_ID_RULE],
    [{ key_id: `${KEY_ID}x`, fault: drop }, 'key_id', 'invalid_value', KEY_ID_RULE],
    [{ key_prefix: 'sk_live', fault: drop }, 'key_prefix', 'invalid_value', KEY_PREFIX],
    [{ key_prefix: 'prl_', fault: drop }, 'key_prefix', 'invalid_value', KEY_PREFIX],
    [{ key_prefix: 'sk_prl_sandbox', fault: drop }, 'key_prefix', 'invalid_value', KEY_PREFIX],
    [{ key_prefix: 'prl_sandbox-x', fault: drop }, 'key_prefix', 'invalid_value', KEY_PREFIX],
    [{ key_prefix: `prl_${'a'.repeat(61)}`, fault: drop }, 'key_prefix', 'invalid_value', KEY_PREFIX],
    [
      { key_id: KEY_ID, key_prefix: 'prl_sandbox_', fault: drop },
      'key_prefix',
      'not_allowed',
      'Give key_id or key_prefix, not both.',
    ],
    [{ status: 503, fault: drop }, 'status', 'unknown_field', 'Unknown field status.'],
  ])('%j → 400 validation_error on %s (%s)', (input, field, reason, message) => {
    expect(refusalOf(() => parseFaultInput(input))).toEqual({
      status: 400,
      code: 'validation_error',
      message,
      details: { field, reason },
    });
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
    expect(faultMatches(match({ path: '/v1/messages' }), { ...send, path: '/v1/messages/' })).toBe(true);
    expect(faultMatches(match({ path: '/v1/messages/' }), { ...send, path: '/v1/messages/' })).toBe(true);
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
