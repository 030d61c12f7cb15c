import { characterCount, isPhoneNumber, MAX_TEXT_LENGTH } from '@parley/sdk';

// The API's own rules (one definition, in the SDK), so a prompt never accepts what a send refuses.

/** Validates the recipient prompt: `true`, or the hint shown under the prompt. */
export function validPhone(value: string): true | string {
  return isPhoneNumber(value.trim()) || 'a + followed by 8 to 15 digits, e.g. +33612345678';
}

/** Validates the text prompt, counting characters as the API does (code points). */
export function validText(value: string): true | string {
  const count = characterCount(value);
  return (count >= 1 && count <= MAX_TEXT_LENGTH) || `between 1 and ${MAX_TEXT_LENGTH} characters`;
}
