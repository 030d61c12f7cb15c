import { usageError } from '../exit-error';

/** Reads a positive number flag (`--timeout 30`); anything else is a usage error naming the flag. */
export function positiveNumber(value: string | number, flag: string): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw usageError(`${flag} must be a positive number, got "${value}"`);
  return number;
}
