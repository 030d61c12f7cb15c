// Web Crypto implementation (default build: browsers, Deno, Bun, edge workers).
// `_hmac-node.ts` has the same exports; the `node` build swaps it in.

const encoder = new TextEncoder();
const MAX_CACHED_KEYS = 32;
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.clear();
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    keys.set(secret, key);
  }
  return key;
}

function signedBytes(prefix: string, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof payload === 'string') return encoder.encode(prefix + payload);
  const head = encoder.encode(prefix);
  const bytes = new Uint8Array(head.length + payload.length);
  bytes.set(head);
  bytes.set(payload, head.length);
  return bytes;
}

async function digest(secret: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await keyFor(secret), bytes));
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** The 32 bytes of a 64-character hex signature, or undefined when it is not one. */
export function decodeSignature(hex: string): Uint8Array | undefined {
  if (hex.length !== 64) return undefined;
  const bytes = new Uint8Array(32);
  for (let index = 0; index < 32; index++) {
    const high = hexValue(hex.charCodeAt(index * 2));
    const low = hexValue(hex.charCodeAt(index * 2 + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[index] = high * 16 + low;
  }
  return bytes;
}

function equalInConstantTime(left: Uint8Array, right: Uint8Array): boolean {
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index++) difference |= left[index]! ^ (right[index] ?? 0);
  return difference === 0;
}

/** True when HMAC-SHA256(secret, prefix + payload) equals any candidate, for any secret. */
export function signatureMatches(
  secrets: readonly string[],
  prefix: string,
  payload: string | Uint8Array,
  candidates: readonly Uint8Array[],
): boolean | Promise<boolean> {
  return matchAsync(secrets, prefix, payload, candidates);
}

async function matchAsync(
  secrets: readonly string[],
  prefix: string,
  payload: string | Uint8Array,
  candidates: readonly Uint8Array[],
): Promise<boolean> {
  const bytes = signedBytes(prefix, payload);
  let matched = false;
  for (const secret of secrets) {
    const expected = await digest(secret, bytes);
    // Every candidate is compared, even after a match, so timing does not reveal which one matched.
    for (const candidate of candidates) matched = equalInConstantTime(expected, candidate) || matched;
  }
  return matched;
}

/** Lowercase hex HMAC-SHA256(secret, prefix + payload). */
export async function signHex(secret: string, prefix: string, payload: string | Uint8Array): Promise<string> {
  const bytes = await digest(secret, signedBytes(prefix, payload));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
