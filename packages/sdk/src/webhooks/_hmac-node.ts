// node:crypto implementation, used only by the `node` export condition build (tsup swaps it
// for `_hmac-web.ts`). On Node a key derived once per secret is ~5x faster than a raw key per
// call and ~10x faster than Web Crypto called one delivery at a time (DESIGN §5).
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

/** What one secret's HMAC needs, derived once: its KeyObject and its RFC 2104 key blocks. */
interface SecretKey {
  /** For the streaming path: a cached KeyObject makes createHmac ~5x faster than a raw key. */
  readonly key: NodeCrypto.KeyObject;
  /** The key padded to one SHA-256 block, XOR 0x36 (inner) and 0x5c (outer), RFC 2104. */
  readonly inner: Uint8Array;
  readonly outer: Uint8Array;
}
const keys = new Map<string, SecretKey>();

/** SHA-256 block size in bytes. */
const BLOCK = 64;
/**
 * Largest inner message (key block + prefix + payload, at 3 UTF-8 bytes per UTF-16 unit) hashed
 * in one call from the scratch buffer: 64 KB deliveries fit, and the buffer kept stays bounded.
 */
const SCRATCH_LIMIT = 256 * 1024;
let scratch: Buffer;
let outerMessage: Uint8Array;

function loadCrypto(): typeof NodeCrypto | null {
  nodeCrypto ??= globalThis.process?.getBuiltinModule?.('node:crypto') ?? null;
  expected ??= Buffer.alloc(32);
  reused ??= Buffer.alloc(32);
  scratch ??= Buffer.alloc(4096);
  outerMessage ??= new Uint8Array(BLOCK + 32);
  return nodeCrypto;
}

function secretKey(crypto: typeof NodeCrypto, secret: string): SecretKey {
  let derived = keys.get(secret);
  if (!derived) {
    if (keys.size > 31) keys.clear();
    const bytes = Buffer.from(secret, 'utf8');
    // RFC 2104: a key longer than a block is hashed first.
    const block = bytes.length > BLOCK ? crypto.hash('sha256', bytes, 'buffer') : bytes;
    const inner = new Uint8Array(BLOCK).fill(0x36);
    const outer = new Uint8Array(BLOCK).fill(0x5c);
    for (let index = 0; index < block.length; index++) {
      inner[index]! ^= block[index]!;
      outer[index]! ^= block[index]!;
    }
    derived = { key: crypto.createSecretKey(bytes), inner, outer };
    keys.set(secret, derived);
  }
  return derived;
}

/**
 * HMAC-SHA256(secret, prefix + payload) in `encoding`. Up to SCRATCH_LIMIT it is RFC 2104 over
 * two one-shot `crypto.hash` calls, the inner message written into a reused buffer: creating an
 * Hmac object costs more than hashing a 1 KB body. verifyWebhook ÷ the floor went from 0.85-0.87
 * to 0.96-0.97 at 1 KB and from 0.96-0.98 to 0.98-1.03 at 64 KB (bench/verify-webhook.mjs).
 * Past the limit, createHmac streams the payload instead of copying it.
 */
function hmacDigest(
  crypto: typeof NodeCrypto,
  secret: string,
  prefix: string,
  payload: string | Uint8Array,
  encoding: 'binary' | 'hex',
): string {
  const { key, inner, outer } = secretKey(crypto, secret);
  const room = BLOCK + 3 * (prefix.length + payload.length);
  if (room > SCRATCH_LIMIT) {
    const hmac = crypto.createHmac('sha256', key).update(prefix);
    return (typeof payload === 'string' ? hmac.update(payload, 'utf8') : hmac.update(payload)).digest(
      encoding,
    );
  }
  if (scratch.length < room)
    scratch = Buffer.alloc(Math.min(SCRATCH_LIMIT, Math.max(room, 2 * scratch.length)));
  scratch.set(inner);
  let end = BLOCK + scratch.write(prefix, BLOCK, 'utf8');
  if (typeof payload === 'string') end += scratch.write(payload, end, 'utf8');
  else {
    scratch.set(payload, end);
    end += payload.length;
  }
  outerMessage.set(outer);
  outerMessage.set(crypto.hash('sha256', scratch.subarray(0, end), 'buffer'), BLOCK);
  return crypto.hash('sha256', outerMessage, encoding);
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
    // As latin1 ('binary') text written into one reused Buffer: a digest as a Buffer allocates an
    // ArrayBuffer outside the heap, ~12 % of a 1 KB verification's HMAC and compare
    // (bench/verify-webhook.mjs). Reusing it is safe: nothing here awaits.
    expected.write(hmacDigest(crypto, secret, prefix, payload, 'binary'), 'binary');
    // Every candidate is compared, even after a match, so timing does not reveal which one matched.
    for (const candidate of candidates)
      matched = crypto.timingSafeEqual(expected, candidate as Uint8Array) || matched;
  }
  return matched;
}

/** Lowercase hex HMAC-SHA256(secret, prefix + payload). */
export async function signHex(secret: string, prefix: string, payload: string | Uint8Array): Promise<string> {
  const crypto = loadCrypto();
  return crypto ? hmacDigest(crypto, secret, prefix, payload, 'hex') : web.signHex(secret, prefix, payload);
}
