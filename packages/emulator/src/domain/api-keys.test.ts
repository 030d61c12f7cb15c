import { SCOPES } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import {
  bearerToken,
  capabilities,
  generateKey,
  hashKey,
  type KeyRecord,
  keyEnvironment,
  keyPrefix,
  parseScopes,
  requireScope,
} from './api-keys';

const SECRET = 'AbCd0123456789efghijklmnopqrstuv';
const SANDBOX_KEY = `prl_sandbox_${SECRET}`;
const LIVE_KEY = `prl_live_${SECRET}`;

describe('key format (DESIGN §2)', () => {
  test.each(['sandbox', 'live'] as const)('generateKey(%s): prl_<env>_ + 32 base62, never twice', (env) => {
    const keys = Array.from({ length: 200 }, () => generateKey(env));
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^prl_${env}_[A-Za-z0-9]{32}$`));
      expect(keyEnvironment(key)).toBe(env);
    }
    expect(new Set(keys).size).toBe(200);
  });

  test('keyEnvironment: the environment of a well-formed key only', () => {
    expect(keyEnvironment(SANDBOX_KEY)).toBe('sandbox');
    expect(keyEnvironment(LIVE_KEY)).toBe('live');
    expect(keyEnvironment(SANDBOX_KEY.slice(0, -1))).toBeUndefined();
    expect(keyEnvironment(`${SANDBOX_KEY}x`)).toBeUndefined();
    expect(keyEnvironment(`x${SANDBOX_KEY}`)).toBeUndefined();
    expect(keyEnvironment(`prl_test_${SECRET}`)).toBeUndefined();
    expect(keyEnvironment(`prl_sandbox_${SECRET.slice(1)}-`)).toBeUndefined();
    expect(keyEnvironment('')).toBeUndefined();
  });

  test('hashKey: lowercase hex SHA-256 of the whole key', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey(SANDBOX_KEY)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(SANDBOX_KEY)).not.toBe(hashKey(LIVE_KEY));
  });
});

describe('keyPrefix: safe to display', () => {
  test('the environment marker and the first 4 of the 32 secret characters, nothing more', () => {
    expect(keyPrefix(SANDBOX_KEY)).toBe('prl_sandbox_AbCd');
    expect(keyPrefix(LIVE_KEY)).toBe('prl_live_AbCd');
    expect(keyPrefix('prl_sandbox_parleyEmulatorDefaultSandboxKey1')).toBe('prl_sandbox_parl');
  });

  test('never holds the secret part of a generated key', () => {
    for (const env of ['sandbox', 'live'] as const) {
      for (let i = 0; i < 100; i++) {
        const key = generateKey(env);
        const prefix = keyPrefix(key);
        expect(key.startsWith(prefix)).toBe(true);
        expect(prefix).toBe(`prl_${env}_${key.slice(-32, -28)}`);
        expect(prefix).not.toContain(key.slice(-32));
      }
    }
  });
});

describe('bearerToken', () => {
  test.each([
    [`Bearer ${SANDBOX_KEY}`, SANDBOX_KEY],
    [`bearer ${SANDBOX_KEY}`, SANDBOX_KEY],
    [`BEARER \t${SANDBOX_KEY}  `, SANDBOX_KEY],
  ])('%j → the token', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  test.each([null, '', 'Bearer', 'Bearer ', `Basic ${SANDBOX_KEY}`, `xBearer ${SANDBOX_KEY}`, 'Bearer a b'])(
    '%j → no token',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});

describe('scopes', () => {
  const key = (scopes: string[]): KeyRecord => ({
    id: 'k',
    application_id: 'a',
    hash: '',
    prefix: '',
    scopes,
    created_at: '',
  });

  test('capabilities: the implemented scopes the key holds, in the canonical order', () => {
    expect(capabilities(['messages.read', 'unknown.scope', 'system.status.read'])).toEqual([
      'system.status.read',
      'messages.read',
    ]);
    expect(capabilities([])).toEqual([]);
    expect(capabilities([...SCOPES].reverse())).toEqual([...SCOPES]);
  });

  test('requireScope: passes with the scope, else 403 insufficient_scope naming it', () => {
    expect(() => requireScope(key(['messages.send']), 'messages.send')).not.toThrow();
    const error = thrownDomainError(() => requireScope(key(['messages.read']), 'messages.send'));
    expect(error).toMatchObject({
      code: 'insufficient_scope',
      status: 403,
      message: 'This API key lacks the scope messages.send.',
      details: { required_scope: 'messages.send' },
    });
  });
});

describe('parseScopes: the scopes of a key creation', () => {
  const invalidType = {
    code: 'validation_error',
    status: 400,
    details: { field: 'scopes', reason: 'invalid_type' },
  };
  const invalidValue = {
    code: 'validation_error',
    status: 400,
    details: { field: 'scopes', reason: 'invalid_value' },
  };

  test('absent: every scope, a fresh copy in the canonical order', () => {
    const scopes = parseScopes(undefined);
    expect(scopes).toEqual([...SCOPES]);
    expect(scopes).not.toBe(SCOPES);
  });

  test('an empty list is a key without scopes', () => {
    expect(parseScopes([])).toEqual([]);
  });

  test('50 scopes accepted, 51 refused', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `scope.${i}`);
    expect(parseScopes(fifty)).toEqual(fifty);
    expect(thrownDomainError(() => parseScopes([...fifty, 'scope.50']))).toMatchObject({
      ...invalidType,
      message: 'scopes must be an array of at most 50 scope names.',
    });
  });

  test.each([null, 'messages.send', { 0: 'messages.send' }, 1])(
    'not an array (%j): invalid_type',
    (value) => {
      expect(thrownDomainError(() => parseScopes(value))).toMatchObject(invalidType);
    },
  );

  test('a scope of 100 characters accepted, 101 or 0 refused', () => {
    const hundred = 'a'.repeat(100);
    expect(parseScopes([hundred])).toEqual([hundred]);
    for (const scope of ['a'.repeat(101), '']) {
      expect(thrownDomainError(() => parseScopes(['messages.send', scope]))).toMatchObject({
        ...invalidValue,
        message: 'Each scope must be a non-empty string.',
      });
    }
  });

  test.each([null, 1, true, ['messages.send'], { scope: 'messages.send' }])(
    'an entry that is not a string (%j): invalid_value',
    (entry) => {
      expect(thrownDomainError(() => parseScopes(['messages.send', entry]))).toMatchObject(invalidValue);
    },
  );

  // The spec's scope list is not complete (spec 5.3): a key may hold a scope this API does not
  // implement; `capabilities` leaves it out.
  test('unknown scopes are kept', () => {
    expect(parseScopes(['billing.read', 'messages.send'])).toEqual(['billing.read', 'messages.send']);
  });

  test('duplicates are dropped, first occurrence order kept', () => {
    expect(parseScopes(['messages.send', 'messages.read', 'messages.send', 'messages.read'])).toEqual([
      'messages.send',
      'messages.read',
    ]);
  });
});
