import { decodeSignature, type Signature } from './_hmac';

/**
 * The `v1=` signatures of a `Parley-Signature` header (`v1=<hex>[,v1=<hex>]`), or what is
 * wrong with it. Spaces after commas are tolerated because proxies join repeated headers
 * with ", "; anything else malformed is refused. Other `vN=` schemes are skipped so a future
 * scheme does not break today's receivers. Compare the result before parsing another header:
 * the usual single signature is decoded into a buffer the next call reuses.
 */
export function parseSignatureHeader(header: string): Signature[] | string {
  // One signature outside a rotation, the usual header, takes no list or loop (~3 % of a 1 KB
  // verifyWebhook), nor an allocation (see decodeSignature).
  if (header.length === 67 && header.startsWith('v1=')) {
    const signature = decodeSignature(header, 3, true);
    return signature === undefined ? 'a v1 is not 64 hex digits' : [signature];
  }
  const signatures: Signature[] = [];
  for (const part of header.split(/, */)) {
    if (!part.startsWith('v1=')) {
      if (/^v\d{1,3}=/.test(part)) continue;
      return 'an item is not vN=…';
    }
    const signature = decodeSignature(part, 3);
    if (signature === undefined) return 'a v1 is not 64 hex digits';
    signatures.push(signature);
  }
  return signatures.length > 0 ? signatures : 'no v1= signature';
}
