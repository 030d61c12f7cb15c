import { PersistenceError } from '../store/data-dir-errors';

/**
 * Whether a call failed because the data dir could not store its change. Such a change was not
 * made, so like a refusal it consumes nothing (no rate-limit charge). Lets `http/` ask without
 * reaching into `store/`, which sits two layers below it.
 */
export function isUnstoredChange(error: unknown): boolean {
  return error instanceof PersistenceError;
}
