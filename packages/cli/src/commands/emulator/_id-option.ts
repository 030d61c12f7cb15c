import { usageError } from '../../exit-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id given on the command line (`--workspace`, a fault or endpoint id): a UUID, else a usage
 * error (exit 2) before any call, saying where ids are listed.
 */
export function idOption(
  value: unknown,
  what = '--workspace',
  listedBy = 'GET /_emulator/workspaces',
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw usageError(
      `${what} takes an id such as 3f1c0e9a-8b2d-4c7e-9f10-2a3b4c5d6e7f (see ${listedBy}), not "${String(value)}"`,
    );
  }
  return value;
}

/** The `--workspace` flag: a workspace id, or undefined for the global clock or the whole emulator. */
export const workspaceOption = (value: unknown) => idOption(value);
