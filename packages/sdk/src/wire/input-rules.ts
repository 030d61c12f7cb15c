/**
 * The input rules of a send, written once (STYLE item 7, like `ERROR_STATUS`): the emulator
 * validates with them, the CLI's prompts check with them, and a test holds `docs/openapi.yaml`
 * to them, so a value one accepts the others accept too.
 */

/** A phone number in international format: `+` then 8 to 15 digits (spec 2.2, DESIGN §2). */
export const PHONE_NUMBER_PATTERN = /^\+[0-9]{8,15}$/;

/** Longest text message, in characters (Unicode code points, as JSON Schema's `maxLength` counts). */
export const MAX_TEXT_LENGTH = 4096;

/** Longest `client_reference`, in characters (Unicode code points). */
export const MAX_CLIENT_REFERENCE_LENGTH = 128;

/** Whether `value` is a phone number the API accepts. */
export function isPhoneNumber(value: unknown): value is string {
  return typeof value === 'string' && PHONE_NUMBER_PATTERN.test(value);
}

/**
 * How many characters the API counts in `text`: Unicode code points, so an emoji outside the
 * Basic Multilingual Plane counts once (JavaScript's `length` would count it twice).
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
