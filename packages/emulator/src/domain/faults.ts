import { invalid, isObject } from './input-checks';

/** What an injected fault answers instead of the API (`POST /_emulator/faults`, field `fault`). */
export type FaultAnswer =
  /** An error answer in the spec's error format, with `Retry-After` when `retry_after` is given. */
  | { status: number; code: string; retry_after?: number }
  /** No answer at all, until the client gives up (past its timeout). */
  | { hang: true }
  /** The connection is reset without an answer (in process: a network error). */
  | { drop: true }
  /** The real answer, `delay_ms` real milliseconds late. */
  | { delay_ms: number };

/** Which requests a fault applies to: every criterion given must hold. */
export interface FaultMatch {
  /** Upper-case HTTP method, or null for any. */
  method: string | null;
  /** A `/v1/…` path where `*` stands for one segment, or null for any. */
  path: string | null;
  /** The id of the API key the request carries, or null for any key. */
  key_id: string | null;
  /** A prefix of the API key the request carries (e.g. its display prefix `prl_sandbox_AbCd`), or null. */
  key_prefix: string | null;
}

/** A parsed `POST /_emulator/faults` body. */
export interface FaultInput extends FaultMatch {
  /** How many matching requests get the fault (then it stays listed with `remaining: 0`). */
  times: number;
  fault: FaultAnswer;
}

/** The request facts a fault is matched against. */
export interface FaultTarget {
  method: string;
  path: string;
  /** The presented API key (the Bearer token), if any. */
  key: string | undefined;
  /** The id of that key when it is a known one. */
  keyId: string | undefined;
}

const FIELDS = new Set(['method', 'path', 'key_id', 'key_prefix', 'times', 'fault']);
const MAX_TIMES = 10_000;
const MAX_DELAY_MS = 600_000;
const MAX_RETRY_AFTER = 86_400;

const wholeNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function optionalString(body: Record<string, unknown>, field: string, pattern: RegExp, rule: string) {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !pattern.test(value))
    invalid(field, 'invalid_value', `${field} must be ${rule}.`);
  return value;
}

/**
 * Checks a `POST /_emulator/faults` body: `{method?, path?, key_id? | key_prefix?, times?, fault}`
 * where `fault` is exactly one of `{status, code, retry_after?}`, `{hang: true}`, `{drop: true}`,
 * `{delay_ms}`. `times` defaults to 1. Throws 400 `validation_error` naming the field.
 */
export function parseFaultInput(input: unknown): FaultInput {
  if (!isObject(input)) invalid('body', 'invalid_type', 'The body must be a JSON object.');
  for (const field of Object.keys(input)) {
    if (!FIELDS.has(field)) invalid(field, 'unknown_field', `Unknown field ${field}.`);
  }
  const method = optionalString(input, 'method', /^[A-Za-z]{1,16}$/, 'an HTTP method such as "POST"');
  const path = optionalString(
    input,
    'path',
    /^\/v1(\/[^/?#\s]+)*\/?$/,
    'a /v1 path such as "/v1/messages" ("*" for one segment)',
  );
  const keyId = optionalString(input, 'key_id', /^[0-9a-f-]{36}$/i, 'the id (UUID) of an API key');
  const keyPrefix = optionalString(
    input,
    'key_prefix',
    /^prl_[A-Za-z0-9_]{1,60}$/,
    'the start of an API key, e.g. "prl_sandbox_AbCd"',
  );
  if (keyId !== null && keyPrefix !== null) {
    invalid('key_prefix', 'not_allowed', 'Give key_id or key_prefix, not both.');
  }
  const times = input.times ?? 1;
  if (!wholeNumber(times, 1, MAX_TIMES))
    invalid('times', 'invalid_value', `times must be a whole number from 1 to ${MAX_TIMES}.`);
  return {
    method: method?.toUpperCase() ?? null,
    path,
    key_id: keyId?.toLowerCase() ?? null,
    key_prefix: keyPrefix,
    times,
    fault: parseFaultAnswer(input.fault),
  };
}

function parseFaultAnswer(value: unknown): FaultAnswer {
  if (value === undefined) invalid('fault', 'required', 'fault is required.');
  if (!isObject(value)) invalid('fault', 'invalid_type', 'fault must be an object.');
  const keys = Object.keys(value).sort().join(',');
  if (keys === 'hang' || keys === 'drop') {
    if (value[keys] !== true) invalid(`fault.${keys}`, 'invalid_value', `fault.${keys} must be true.`);
    return keys === 'hang' ? { hang: true } : { drop: true };
  }
  if (keys === 'delay_ms') {
    if (!wholeNumber(value.delay_ms, 1, MAX_DELAY_MS)) {
      invalid(
        'fault.delay_ms',
        'invalid_value',
        `fault.delay_ms must be a whole number from 1 to ${MAX_DELAY_MS}.`,
      );
    }
    return { delay_ms: value.delay_ms };
  }
  if (keys === 'code,status' || keys === 'code,retry_after,status') {
    if (!wholeNumber(value.status, 400, 599)) {
      invalid('fault.status', 'invalid_value', 'fault.status must be an HTTP error status from 400 to 599.');
    }
    if (typeof value.code !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(value.code)) {
      invalid('fault.code', 'invalid_value', 'fault.code must be an error code such as "rate_limited".');
    }
    if (value.retry_after === undefined) return { status: value.status, code: value.code };
    if (!wholeNumber(value.retry_after, 0, MAX_RETRY_AFTER)) {
      invalid(
        'fault.retry_after',
        'invalid_value',
        `fault.retry_after must be whole seconds from 0 to ${MAX_RETRY_AFTER}.`,
      );
    }
    return { status: value.status, code: value.code, retry_after: value.retry_after };
  }
  return invalid(
    'fault',
    'invalid_value',
    'fault must be one of {"status","code","retry_after"?}, {"hang":true}, {"drop":true}, {"delay_ms"}.',
  );
}

/** Whether a fault applies to a request: method, path (`*` = one segment) and key, each when given. */
export function faultMatches(match: FaultMatch, target: FaultTarget): boolean {
  if (match.method !== null && match.method !== target.method.toUpperCase()) return false;
  if (match.path !== null && !pathMatches(match.path, target.path)) return false;
  if (match.key_id !== null && match.key_id !== target.keyId) return false;
  if (match.key_prefix !== null && !target.key?.startsWith(match.key_prefix)) return false;
  return true;
}

function pathMatches(pattern: string, path: string): boolean {
  const expected = pattern.replace(/\/$/, '').split('/');
  const actual = path.replace(/\/$/, '').split('/');
  return (
    expected.length === actual.length &&
    expected.every((segment, index) => segment === '*' || segment === actual[index])
  );
}
