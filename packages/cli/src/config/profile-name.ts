import { usageError } from '../exit-error';

// Letters, digits and `_ . -`, so a name prints as itself and completes as one shell word; not
// starting with `.` or `-`, which read as a path or a flag. `__proto__` and `constructor` fit:
// profiles are a Map, where they are names like any other.
const PROFILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** The rule of {@link isProfileName}, as messages say it. */
export const PROFILE_NAME_RULE =
  'a profile name is 1 to 64 letters, digits, "_", "." or "-", and does not start with "." or "-"';

/** True for a name a profile may have. */
export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

/**
 * `name` when it is a valid profile name, else a usage error (exit 2) naming where it came from.
 *
 * @example
 * checkedProfileName(flags.profile, '--profile');
 */
export function checkedProfileName(name: string, source: string): string {
  if (isProfileName(name)) return name;
  throw usageError(`${source} must be a profile name, not "${name}": ${PROFILE_NAME_RULE}`);
}
