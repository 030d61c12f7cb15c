import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY, TEST_BASE_URL } from '../_test/test-server';
import { ConfigurationError } from '../errors/configuration-error';
import { type ParleyOptions, resolveOptions } from './client-options';

const given = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL };

/** The ConfigurationError (exactly that class) that `options` cause. */
function refusal(options: ParleyOptions): ConfigurationError {
  let caught: unknown;
  try {
    resolveOptions(options);
  } catch (error) {
    caught = error;
  }
  expect(Object.getPrototypeOf(caught)).toBe(ConfigurationError.prototype);
  expect((caught as Error).name).toBe('ConfigurationError');
  return caught as ConfigurationError;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('resolveOptions', () => {
  it('applies the defaults: 30 s timeout, 2 retries, a 60 s Retry-After cap, the global fetch', () => {
    expect(resolveOptions(given)).toEqual({
      apiKey: TEST_API_KEY,
      baseUrl: TEST_BASE_URL,
      timeout: 30_000,
      maxRetries: 2,
      maxRetryAfter: 60_000,
      fetch: undefined,
    });
  });

  it('keeps the smallest accepted values: timeout 1, no retries, no Retry-After wait', () => {
    const fetch = async () => new Response();
    expect(resolveOptions({ ...given, timeout: 1, maxRetries: 0, maxRetryAfter: 0, fetch })).toEqual({
      ...given,
      timeout: 1,
      maxRetries: 0,
      maxRetryAfter: 0,
      fetch,
    });
  });

  it.each([
    ['timeout', -1, 1],
    ['timeout', 0, 1],
    ['timeout', 1.5, 1],
    ['timeout', Number.NaN, 1],
    ['timeout', Number.POSITIVE_INFINITY, 1],
    ['maxRetries', -1, 0],
    ['maxRetries', 1.5, 0],
    ['maxRetries', Number.NaN, 0],
    ['maxRetryAfter', -1, 0],
    ['maxRetryAfter', 1.5, 0],
    ['maxRetryAfter', Number.NaN, 0],
  ] as const)('refuses %s: %d with a ConfigurationError naming it', (name, value, minimum) => {
    expect(refusal({ ...given, [name]: value }).message).toBe(`\`${name}\` must be an integer ≥ ${minimum}`);
  });

  it('reads PARLEY_API_KEY and PARLEY_BASE_URL, an empty variable counting as unset', () => {
    vi.stubEnv('PARLEY_API_KEY', TEST_API_KEY);
    vi.stubEnv('PARLEY_BASE_URL', `${TEST_BASE_URL}/`);
    expect(resolveOptions({})).toMatchObject(given);
    vi.stubEnv('PARLEY_API_KEY', '');
    expect(refusal({ baseUrl: TEST_BASE_URL }).message).toBe(
      'Missing API key: pass `apiKey` or set PARLEY_API_KEY',
    );
    vi.stubEnv('PARLEY_BASE_URL', '');
    expect(refusal({ apiKey: TEST_API_KEY }).message).toBe(
      'Missing base URL: pass `baseUrl` or set PARLEY_BASE_URL (the emulator: http://127.0.0.1:4010/v1)',
    );
  });

  it('prefers the options to the environment', () => {
    vi.stubEnv('PARLEY_API_KEY', 'prl_live_ffffffffffffffffffffffffffffffff');
    vi.stubEnv('PARLEY_BASE_URL', 'https://api.example.com/v1');
    expect(resolveOptions(given)).toMatchObject(given);
  });

  it.each([
    `${TEST_API_KEY}x`,
    `x${TEST_API_KEY}`,
    `${TEST_API_KEY}\n`,
    TEST_API_KEY.slice(0, -1),
    TEST_API_KEY.replace('prl_sandbox_', 'prl_sandboxx_'),
    TEST_API_KEY.replace('prl_sandbox_', 'prl_'),
  ])('refuses the key %j: no characters before or after the shape', (apiKey) => {
    expect(refusal({ ...given, apiKey }).message).toBe(
      '`apiKey` / PARLEY_API_KEY is not a Parley key: expected prl_sandbox_ or prl_live_ and 32 letters or digits',
    );
  });

  it('strips every trailing slash of the base URL, and only those', () => {
    expect(resolveOptions({ ...given, baseUrl: 'https://api.example.com/v1///' }).baseUrl).toBe(
      'https://api.example.com/v1',
    );
    expect(resolveOptions({ ...given, baseUrl: 'https://api.example.com/v1/x' }).baseUrl).toBe(
      'https://api.example.com/v1/x',
    );
  });

  it.each(['api.example.com/v1', ' https://api.example.com/v1', 'https:/api.example.com', 'http://[::1/v1'])(
    'refuses the base URL %j',
    (baseUrl) => {
      expect(refusal({ ...given, baseUrl }).message).toBe(
        '`baseUrl` / PARLEY_BASE_URL must be an absolute http(s) URL',
      );
    },
  );

  it.each([
    ['no process', undefined],
    ['a process without env', {}],
  ])('runs in a runtime with %s, from the options alone', (_runtime, runtimeProcess) => {
    vi.stubGlobal('process', runtimeProcess);
    try {
      expect(resolveOptions(given)).toMatchObject(given);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
