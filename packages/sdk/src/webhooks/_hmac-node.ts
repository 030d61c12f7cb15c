// node:crypto implementation, used only by the `node` export condition build (tsup swaps it
// for `_hmac-web.ts`). On Node a cached KeyObject is ~5x faster than a raw key per call and
// ~10x faster than Web Crypto called one delivery at a time (DESIGN §5).
//
// node:crypto is fetched with process.getBuiltinModule on first use, not imported: loading it
// costs ~15% of a bare `node -e 0`, which would all land on the import of
// `@parley/sdk/webhooks`. On Node 22.0–22.2 (no getBuiltinModule) Web Crypto takes over.
import type * as NodeCrypto from 'node:crypto';
import * as web from './_hmac-web';

/** A parsed `v1=` value as this implementation compares it: 32 raw bytes, or hex on the fallback. */
export type Signature = Uint8Array | string;

let nodeCrypto: typeof NodeCrypto | null | undefined;
let expected: Buffer;
let reused: Buffer;
const keys = new Map<string, NodeCrypto.KeyObject>();

function loadCrypto(): typeof NodeCrypto | null {
  nodeCrypto ??= globalThis.process?.getBuiltinModule?.('node:crypto') ?? null;
  expected ??= Buffer.alloc(32);
  reused ??= Buffer.alloc(32);
  return nodeCrypto;
}

function hmac(
  crypto: typeof NodeCrypto,
  secret: string,
  prefix: string,
  payload: string | Uint8Array,
): NodeCrypto.Hmac {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 31) keys.clear();
    key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  const hmac = crypto.createHmac('sha256', key).update(prefix);
  return typeof payload === 'string' ? hmac.update(payload, 'utf8') : hmac.update(payload);
}

// Pure, so an app that imports only the client drops it (the two entries share one chunk).
const HEX_VALUE = /* @__PURE__ */ hexValues();

/** The value of each hex digit by its character code, -1 for any other code below 256. */
function hexValues(): Int8Array {
  const values = new Int8Array(256).fill(-1);
  for (const [index, digit] of [...'0123456789abcdef'].entries()) {
    values[digit.charCodeAt(0)] = values[digit.toUpperCase().charCodeAt(0)] = index;
  }
  return values;
}

/**
 * The signature in the 64 hex characters of `text` from `start` to its end, or undefined when
 * they are not that. With `reuse`, the bytes go into one buffer that the next such call
 * overwrites: for a signature compared before another is decoded. Sparing the allocation and
 * `Buffer.from(text.slice(start), 'hex')` is ~5 % of a 1 KB verifyWebhook (0.80 -> 0.85 of the
 * floor, bench/verify-webhook.mjs); a fresh Uint8Array would cost more than Buffer.from, its
 * bytes being moved off the heap when compared.
 */
export function decodeSignature(text: string, start = 0, reuse = false): Signature | undefined {
  if (!loadCrypto()) return web.decodeSignature(text, start);
  if (text.length - start !== 64) return undefined;
  const bytes = reuse ? reused : Buffer.allocUnsafe(32);
  // OR of every byte (negative once a character is not a hex digit: -1 in the table) and of every
  // character code (256 or more once one is past Latin-1, which `& 255` would alias to a digit).
  let digits = 0;
  let codes = 0;
  for (let index = 0, position = start; index < 32; index++, position += 2) {
    const high = text.charCodeAt(position);
    const low = text.charCodeAt(position + 1);
    const byte = (HEX_VALUE[high & 255]! << 4) | HEX_VALUE[low & 255]!;
    digits |= byte;
    codes |= high | low;
    bytes[index] = byte;
  }
  return digits < 0 || codes > 255 ? undefined : bytes;
}

/**
 * True when HMAC-SHA256(secret, prefix + payload) equals any candidate, for any secret.
 * Synchronous here (the web version returns a promise): sparing promise hops is a measurable
 * share of a 1 KB verification.
 */
export function signatureMatches(
  secrets: readonly string[],
  prefix: string,
  payload: string | Uint8Array,
  candidates: readonly Signature[],
): boolean | Promise<boolean> {
  const crypto = loadCrypto();
  if (!crypto) return web.signatureMatches(secrets, prefix, payload, candidates as string[]);
  let matched = false;
  for (const secret of secrets) {
    // As latin1 ('binary') text written into one reused Buffer: digest() without an encoding
    // allocates an ArrayBuffer outside the heap, ~12 % of a 1 KB verification's HMAC and compare
    // (bench/verify-webhook.mjs). Reusing it is safe: nothing here awaits.
    expected.write(hmac(crypto, secret, prefix, payload).digest('binary'), 'binary');
    // Every candidate is compared, even after a match, so timing does not reveal which one matched.
    for (const candidate of candidates)
      matched = crypto.timingSafeEqual(expected, candidate as Uint8Array) || matched;
  }
  return matched;
}

/** Lowercase hex HMAC-SHA256(secret, prefix + payload). */
export async function signHex(secret: string, prefix: string, payload: string | Uint8Array): Promise<string> {
  const crypto = loadCrypto();
  return crypto ? hmac(crypto, secret, prefix, payload).digest('hex') : web.signHex(secret, prefix, payload);
}
