import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from './signing-secret';

describe('generateSigningSecret', () => {
  it('makes whsec_ + 32 base62 characters, using the whole alphabet', () => {
    const secrets = Array.from({ length: 200 }, generateSigningSecret);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
    const used = new Set(secrets.join('').replaceAll('whsec_', ''));
    expect(used.size).toBe(62);
  });
});
