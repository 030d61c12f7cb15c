import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const prefix = 'evt_1.1790000000.';
const body = '{"id":"evt_1","type":"webhook.test"}';
const reference = (key: string) => createHmac('sha256', key).update(prefix).update(body).digest('hex');

let hmac: typeof import('./_hmac-web');

beforeEach(async () => {
  // A fresh module each time: its key cache starts empty.
  vi.resetModules();
  hmac = await import('./_hmac-web');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Web Crypto HMAC', () => {
  it('imports each secret once, as a key that cannot be exported and only signs', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    expect(await hmac.signHex(secret, prefix, body)).toBe(reference(secret));
    expect(await hmac.signHex(secret, prefix, body)).toBe(reference(secret));
    expect(importKey).toHaveBeenCalledOnce();
    await hmac.signHex('whsec_other', prefix, body);
    await hmac.signHex(secret, prefix, body);
    expect(importKey).toHaveBeenCalledTimes(2);
    expect(importKey.mock.calls[0]?.slice(2)).toEqual([{ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']]);
  });

  it('starts the key cache over past 32 secrets', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    for (let index = 1; index < 32; index++) await hmac.signHex(`whsec_${index}`, prefix, body);
    await hmac.signHex(secret, prefix, body);
    await hmac.signHex(secret, prefix, body);
    expect(importKey).toHaveBeenCalledTimes(32);
    await hmac.signHex('whsec_33', prefix, body);
    await hmac.signHex(secret, prefix, body);
    expect(importKey).toHaveBeenCalledTimes(34);
  });

  it('matches any candidate for any secret, and nothing else', async () => {
    const [match, other] = [reference(secret), reference('whsec_other')];
    expect(await hmac.signatureMatches([secret], prefix, body, [other, match])).toBe(true);
    expect(await hmac.signatureMatches(['whsec_third', secret], prefix, body, [match])).toBe(true);
    expect(await hmac.signatureMatches(['whsec_third'], prefix, body, [match, other])).toBe(false);
    const lastDigitChanged = match.slice(0, 63) + (match.endsWith('0') ? '1' : '0');
    expect(await hmac.signatureMatches([secret], prefix, body, [lastDigitChanged])).toBe(false);
  });
});
