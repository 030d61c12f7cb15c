import { hash } from 'node:crypto';
import { type Environment, SCOPES, type Scope } from '@parley/sdk';
import { DomainError } from './domain-error';
import { randomBase62 } from './ids';

/** A stored API key: only its SHA-256 is kept (DESIGN §2), never the key itself. */
export interface KeyRecord {
  id: string;
  application_id: string;
  /** Lowercase hex SHA-256 of the full key. */
  hash: string;
  /** The first characters of the key, safe to display (`prl_sandbox_AbCd…`: 4 of the 32 secret characters). */
  prefix: string;
  scopes: string[];
  created_at: string;
}

const KEY_PATTERN = /^prl_(sandbox|live)_[A-Za-z0-9]{32}$/;

/** SHA-256 hex of a key: what is stored and looked up. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new key for an environment: `prl_sandbox_` / `prl_live_` + 32 base62 characters. */
export function generateKey(environment: Environment): string {
  return `prl_${environment}_${randomBase62(32)}`;
}

/** The environment a well-formed key belongs to, or undefined for a malformed one. */
export function keyEnvironment(key: string): Environment | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as Environment) : undefined;
}

/** The displayable start of a key: `prl_<environment>_` and the first 4 of its 32 secret characters. */
export function keyPrefix(key: string): string {
  return key.slice(0, key.indexOf('_', 4) + 5);
}

/** The bearer token of an `Authorization` header, or undefined when there is none. */
export function bearerToken(header: string | null): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Scopes of a key that this API implements (`capabilities`, DESIGN §2), in the canonical order. */
export function capabilities(scopes: readonly string[]): Scope[] {
  return SCOPES.filter((scope) => scopes.includes(scope));
}

/** Throws 403 `insufficient_scope` unless the key holds `scope`. */
export function requireScope(key: KeyRecord, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw new DomainError('insufficient_scope', `This API key lacks the scope ${scope}.`, {
      required_scope: scope,
    });
  }
}

/**
 * Validates the `scopes` of a key creation: absent means every scope; else an array of at most 50
 * strings of 1–100 characters. Duplicates are dropped; names this API does not implement are kept
 * (spec 5.3 leaves the list open; `capabilities` shows only the implemented ones).
 */
export function parseScopes(value: unknown): string[] {
  if (value === undefined) return [...SCOPES];
  if (!Array.isArray(value) || value.length > 50) {
    throw new DomainError('validation_error', 'scopes must be an array of at most 50 scope names.', {
      field: 'scopes',
      reason: 'invalid_type',
    });
  }
  for (const scope of value) {
    if (typeof scope !== 'string' || scope.length === 0 || scope.length > 100) {
      throw new DomainError('validation_error', 'Each scope must be a non-empty string.', {
        field: 'scopes',
        reason: 'invalid_value',
      });
    }
  }
  return [...new Set(value as string[])];
}
