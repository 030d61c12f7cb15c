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
const keys = new Map<string, NodeCrypto.KeyObject>();

function loadCrypto(): typeof NodeCrypto | null {
  nodeCrypto ??= globalThis.process?.getBuiltinModule?.('node:crypto') ?? null;
  expected ??= Buffer.alloc(32);
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

/** The signature in a 64-character hex value, or undefined when it is not one. */
export function decodeSignature(hex: string): Signature | undefined {
  if (!loadCrypto()) return web.decodeSignature(hex);
  if (hex.length !== 64) return undefined;
  // Buffer stops decoding at the first non-hex character, so a short result means bad input.
  const bytes = Buffer.from(hex, 'hex');
  return bytes.length === 32 ? bytes : undefined;
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
