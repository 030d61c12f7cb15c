import type * as NodeCrypto from 'node:crypto';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The `node` build swaps this module in for Web Crypto (tsup.config.ts). These tests prove that
// node:crypto really runs: had it silently fallen back to Web Crypto, every result would still
// be right, so each test also checks which implementation produced it.
const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const prefix = 'evt_1.1790000000.';
const body = '{"id":"evt_1","type":"webhook.test"}';
const reference = (key: string) => createHmac('sha256', key).update(prefix).update(body).digest('hex');

const nodeCrypto = process.getBuiltinModule('node:crypto') as typeof NodeCrypto;
let hmac: typeof import('./_hmac-node');

beforeEach(async () => {
  // A fresh module each time: its key cache and its loaded node:crypto start empty.
  vi.resetModules();
  hmac = await import('./_hmac-node');
  // Web Crypto made unusable: any use of it fails the test.
  vi.spyOn(crypto.subtle, 'sign').mockRejectedValue(new Error('Web Crypto used'));
  vi.spyOn(crypto.subtle, 'importKey').mockRejectedValue(new Error('Web Crypto used'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the node:crypto HMAC', () => {
  it('loads node:crypto through process.getBuiltinModule on first use', async () => {
    const load = vi.spyOn(process, 'getBuiltinModule');
    expect(await hmac.signHex(secret, prefix, body)).toBe(reference(secret));
    expect(load.mock.calls).toEqual([['node:crypto']]);
    await hmac.signHex(secret, prefix, body);
    expect(load).toHaveBeenCalledOnce();
  });

  it('decodes a v1 value to 32 raw bytes, not hex text', () => {
    const decoded = hmac.decodeSignature(reference(secret));
    expect(decoded).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(decoded as Uint8Array).toString('hex')).toBe(reference(secret));
  });

  it('decodes into one reused buffer only when asked, so values decoded together stay apart', () => {
    const [match, other] = [reference(secret), reference('whsec_other')];
    const asHex = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('hex');
    const [first, second] = [hmac.decodeSignature(match), hmac.decodeSignature(other)];
    expect([asHex(first), asHex(second)]).toEqual([match, other]);
    const reused = hmac.decodeSignature(`v1=${match}`, 3, true);
    expect(asHex(reused)).toBe(match);
    expect(hmac.decodeSignature(`v1=${other}`, 3, true)).toBe(reused);
    expect([asHex(reused), asHex(first)]).toEqual([other, match]);
  });

  it('answers synchronously, with no promise, with Web Crypto unusable', () => {
    const signature = hmac.decodeSignature(reference(secret))!;
    expect(hmac.signatureMatches([secret], prefix, body, [signature])).toBe(true);
    expect(hmac.signatureMatches(['whsec_other'], prefix, body, [signature])).toBe(false);
    expect(hmac.signatureMatches([secret], prefix, new TextEncoder().encode(body), [signature])).toBe(true);
  });

  it('compares every candidate with every secret, also after a match (constant time)', () => {
    const compare = vi.spyOn(nodeCrypto, 'timingSafeEqual');
    const [match, other] = [reference(secret), reference('whsec_other')].map(
      (hex) => hmac.decodeSignature(hex)!,
    );
    expect(hmac.signatureMatches([secret, 'whsec_third'], prefix, body, [match!, other!])).toBe(true);
    expect(compare).toHaveBeenCalledTimes(4);
  });

  it('creates one KeyObject per secret, and starts the cache over past 32 secrets', async () => {
    const create = vi.spyOn(nodeCrypto, 'createSecretKey');
    await hmac.signHex(secret, prefix, body);
    await hmac.signHex(secret, prefix, body);
    expect(create).toHaveBeenCalledOnce();
    for (let index = 1; index < 32; index++) await hmac.signHex(`whsec_${index}`, prefix, body);
    await hmac.signHex(secret, prefix, body);
    expect(create).toHaveBeenCalledTimes(32);
    // The 33rd secret clears the cache, so the first one needs a new KeyObject.
    await hmac.signHex('whsec_33', prefix, body);
    await hmac.signHex(secret, prefix, body);
    expect(create).toHaveBeenCalledTimes(34);
  });

  it('falls back to Web Crypto in a runtime without process', () => {
    const decode = (hex: string) => {
      vi.stubGlobal('process', undefined);
      try {
        return hmac.decodeSignature(hex);
      } finally {
        vi.unstubAllGlobals();
      }
    };
    expect(decode(reference(secret).toUpperCase())).toBe(reference(secret));
  });
});

describe('the one-shot HMAC (RFC 2104 over crypto.hash)', () => {
  const referenceOf = (key: string, start: string, payload: string | Uint8Array) =>
    createHmac('sha256', key).update(start).update(payload).digest('hex');

  it('equals createHmac for any secret, prefix and payload: short, block-long and longer keys, any text', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          text,
          fc.string({ minLength: 60, maxLength: 70 }),
          fc.string({ minLength: 100, maxLength: 200 }),
        ),
        text,
        fc.oneof(text, fc.uint8Array({ maxLength: 3000 })),
        async (key, start, payload) => {
          fc.pre(key !== '');
          expect(await hmac.signHex(key, start, payload)).toBe(referenceOf(key, start, payload));
        },
      ),
    );
  });

  it('hashes a key of exactly 64 bytes as is, and one of 65 bytes first (RFC 2104)', async () => {
    for (const key of ['k'.repeat(64), 'k'.repeat(65), `${'k'.repeat(62)}é`, `${'k'.repeat(63)}é`]) {
      expect(await hmac.signHex(key, prefix, body)).toBe(referenceOf(key, prefix, body));
    }
  });

  it('hashes in one call up to the scratch limit, and streams through createHmac one byte past it', async () => {
    const oneShot = vi.spyOn(nodeCrypto, 'hash');
    const streamed = vi.spyOn(nodeCrypto, 'createHmac');
    // The limit, 256 KiB, counts the 64-byte key block and 3 bytes per UTF-16 unit of prefix and payload.
    const atLimit = 'x'.repeat((256 * 1024 - 64) / 3 - prefix.length);
    expect(await hmac.signHex(secret, prefix, atLimit)).toBe(referenceOf(secret, prefix, atLimit));
    expect([oneShot.mock.calls.length, streamed.mock.calls.length]).toEqual([2, 0]);
    const pastLimit = `${atLimit}x`;
    expect(await hmac.signHex(secret, prefix, pastLimit)).toBe(referenceOf(secret, prefix, pastLimit));
    expect([oneShot.mock.calls.length, streamed.mock.calls.length]).toEqual([2, 1]);
  });

  it('leaves nothing of a longer payload in a shorter one’s digest (the scratch buffer is reused)', async () => {
    const long = 'é'.repeat(5000);
    const bytes = new TextEncoder().encode('{"id":"evt_2"}');
    for (const payload of [long, body, bytes, long, bytes, body]) {
      expect(await hmac.signHex(secret, prefix, payload)).toBe(referenceOf(secret, prefix, payload));
    }
    const signature = hmac.decodeSignature(referenceOf(secret, prefix, body))!;
    expect(hmac.signatureMatches([secret], prefix, long, [signature])).toBe(false);
    expect(hmac.signatureMatches([secret], prefix, body, [signature])).toBe(true);
  });
});
