/** The most characters (code points) an endpoint's `description` may have. */
export const MAX_ENDPOINT_DESCRIPTION_LENGTH = 200;

// Control characters (C0, DEL, C1), line separators and bidirectional overrides: a description is
// printed by the CLI and the console, so it is refused rather than stripped (what is stored is
// exactly what was sent).
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * Why `value` is not a valid endpoint description, as a validation reason and message, or
 * `undefined` when it is one: a string of 1 to 200 characters without control characters.
 */
export function endpointDescriptionProblem(value: unknown): { reason: string; message: string } | undefined {
  if (typeof value !== 'string') {
    return { reason: 'not_a_string', message: 'description must be a string (or null for none).' };
  }
  if (value.length === 0) {
    return { reason: 'empty', message: 'description must not be empty: send null for none.' };
  }
  if ([...value].length > MAX_ENDPOINT_DESCRIPTION_LENGTH) {
    return {
      reason: 'too_long',
      message: `description must be at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters.`,
    };
  }
  if (UNPRINTABLE.test(value)) {
    return {
      reason: 'control_character',
      message:
        'description must not contain control characters (line breaks, tabs, escapes, direction overrides).',
    };
  }
  return undefined;
}
