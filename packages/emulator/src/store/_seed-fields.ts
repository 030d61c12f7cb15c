import { isUuid } from '../domain/ids';

/** A seed file that does not follow `SeedFile`; the message names the exact place. */
export class SeedError extends Error {
  override readonly name = 'SeedError';
}

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** Throws the {@link SeedError} for `path`, e.g. `seed workspaces[0].name: must be a string`. */
export function fail(path: string, problem: string): never {
  throw new SeedError(`seed ${path}: ${problem}`);
}

/** `value` as an object holding only `allowed` fields. */
export function object(value: unknown, path: string, allowed: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) fail(`${path}.${field}`, `unknown field (allowed: ${allowed.join(', ')})`);
  }
  return value as Json;
}

/** `value` as an array; absent is empty. */
export function array(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value;
}

/** `value` as a string of 1 to `maxLength` characters. */
export function text(value: unknown, path: string, maxLength = 200): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    fail(path, `must be a string of 1 to ${maxLength} characters`);
  }
  return value;
}

/** An optional UUID, unique across the whole seed (`seen`), lower-cased. */
export function optionalId(value: unknown, path: string, seen: Set<string>): string | undefined {
  if (value === undefined) return undefined;
  if (!isUuid(value)) fail(path, 'must be a UUID');
  if (seen.has(value.toLowerCase())) fail(path, `duplicate id ${value}`);
  seen.add(value.toLowerCase());
  return value.toLowerCase();
}
