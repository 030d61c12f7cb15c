import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSignatureHeader } from './_signature-header';

// Runs on the default (Web Crypto) build's decoding, where a parsed v1 is lowercase hex.
const hex = (key: string) => createHmac('sha256', key).update('evt_1.1.{}').digest('hex');
const [first, second] = [hex('whsec_a'), hex('whsec_b')];

describe('parseSignatureHeader', () => {
  it('returns every v1 in order, with or without spaces after the commas', () => {
    expect(parseSignatureHeader(`v1=${first}`)).toEqual([first]);
    expect(parseSignatureHeader(`v1=${first},v1=${second}`)).toEqual([first, second]);
    expect(parseSignatureHeader(`v1=${first},   v1=${second.toUpperCase()}`)).toEqual([first, second]);
  });

  it.each(['v0', 'v2', 'v10', 'v999'])('skips a %s= value (a future scheme) next to a v1', (scheme) => {
    expect(parseSignatureHeader(`${scheme}=whatever,v1=${first}`)).toEqual([first]);
    expect(parseSignatureHeader(`v1=${first}, ${scheme}=${'f'.repeat(64)}`)).toEqual([first]);
  });

  it.each([
    [`v1=${first},xv2=abc`, 'an item is not vN=…'],
    [`v1000=abc,v1=${first}`, 'an item is not vN=…'],
    [`v=abc,v1=${first}`, 'an item is not vN=…'],
    [`V1=${first}`, 'an item is not vN=…'],
    [` v1=${first}`, 'an item is not vN=…'],
    [`v1=${first};`, 'a v1 is not 64 hex digits'],
    [`v1=${first.slice(1)}`, 'a v1 is not 64 hex digits'],
    [`v1=${first},v1=`, 'a v1 is not 64 hex digits'],
    [`v2=${first}`, 'no v1= signature'],
    [`v2=${first}, v10=${second}`, 'no v1= signature'],
  ])('refuses %j: %s', (header, problem) => {
    expect(parseSignatureHeader(header)).toBe(problem);
  });
});
