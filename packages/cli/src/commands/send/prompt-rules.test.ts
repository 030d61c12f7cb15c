import { describe, expect, test } from 'vitest';
import { validPhone, validText } from './_prompt-rules';

describe("interactive send prompts use the API's rules", () => {
  test('phone: 8 to 15 digits after +, as the API (7 digits was accepted before and refused by the API)', () => {
    expect(validPhone('+1234567')).toBe('a + followed by 8 to 15 digits, e.g. +33612345678');
    expect(validPhone('+12345678')).toBe(true);
    expect(validPhone('+123456789012345')).toBe(true);
    expect(validPhone('+1234567890123456')).not.toBe(true);
    expect(validPhone(' +33612345678 ')).toBe(true);
    expect(validPhone('33612345678')).not.toBe(true);
  });

  test('text: 1 to 4096 characters counted as code points, so 4096 emoji fit', () => {
    expect(validText('')).toBe('between 1 and 4096 characters');
    expect(validText('😀'.repeat(4096))).toBe(true);
    expect(validText('😀'.repeat(4097))).toBe('between 1 and 4096 characters');
    expect(validText('a'.repeat(4096))).toBe(true);
  });
});
