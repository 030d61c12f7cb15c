// Web Crypto implementation (default build: browsers, Deno, Bun, edge workers).
// `_hmac-node.ts` has the same exports; the `node` build swaps it in.

/** A parsed `v1=` value as this implementation compares it: lowercase hex here. */
export type Signature = string;

// Pure: an app that imports only the client drops it (the two entries share one chunk).
const encoder = /* @__PURE__ */ new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 31) keys.clear();
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    keys.set(secret, key);
  }
  return key;
}

async function hexDigest(secret: string, prefix: string, payload: string | Uint8Array): Promise<string> {
  // A Blob joins the prefix (as UTF-8) and the payload without an explicit copy loop.
  const bytes = await new Blob([prefix, payload as Uint8Array<ArrayBuffer>]).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', await keyFor(secret), bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The signature in the 64 hex characters of `text` from `start` to its end, or undefined when
 * they are not that. `reuse` is for the node implementation's sake: a string is never overwritten.
 */
export function decodeSignature(text: string, start = 0, _reuse = false): Signature | undefined {
  const hex = text.slice(start);
  return /^[\da-f]{64}$/i.test(hex) ? hex.toLowerCase() : undefined;
}

/** True when HMAC-SHA256(secret, prefix + payload) equals any candidate, for any secret. */
export async function signatureMatches(
  secrets: readonly string[],
  prefix: string,
  payload: string | Uint8Array,
  candidates: readonly Signature[],
): Promise<boolean> {
  let matched = 0;
  for (const secret of secrets) {
    const expected = await hexDigest(secret, prefix, payload);
    // Constant time: every character of every candidate is compared, even after a match.
    for (const candidate of candidates) {
      let difference = 0;
      // Stryker disable next-line EqualityOperator: equivalent, charCodeAt(64) is NaN on both sides and NaN ^ NaN is 0
      for (let index = 0; index < 64; index++)
        difference |= expected.charCodeAt(index) ^ candidate.charCodeAt(index);
      matched |= +(difference === 0);
    }
  }
  return matched === 1;
}

/** Lowercase hex HMAC-SHA256(secret, prefix + payload). */
export const signHex: (secret: string, prefix: string, payload: string | Uint8Array) => Promise<string> =
  hexDigest;
