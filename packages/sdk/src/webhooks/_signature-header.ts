import { decodeSignature } from './_hmac';

/**
 * The decoded `v1=` signatures of a `Parley-Signature` header (`v1=<hex>[,v1=<hex>]`), or a
 * message saying what is wrong. Spaces after commas are tolerated because proxies join
 * repeated headers with ", "; anything else malformed is refused. Other `vN=` schemes are
 * skipped so a future scheme does not break today's receivers.
 */
export function parseSignatureHeader(header: string): Uint8Array[] | string {
  if (header.length === 67 && header.startsWith('v1=')) {
    // The common case, one signature outside a rotation, without splitting.
    const signature = decodeSignature(header.slice(3));
    return signature === undefined ? 'a v1 value is not 64 hexadecimal characters' : [signature];
  }
  const signatures: Uint8Array[] = [];
  for (let part of header.split(',')) {
    while (part.startsWith(' ')) part = part.slice(1);
    const equals = part.indexOf('=');
    if (equals <= 0) return `"${truncate(part)}" is not a scheme=value pair`;
    const scheme = part.slice(0, equals);
    const value = part.slice(equals + 1);
    if (scheme !== 'v1') {
      if (!isVersionScheme(scheme)) return `unknown signature scheme "${truncate(scheme)}"`;
      continue;
    }
    const signature = decodeSignature(value);
    if (signature === undefined) return 'a v1 value is not 64 hexadecimal characters';
    signatures.push(signature);
  }
  if (signatures.length === 0) return 'it holds no v1= signature';
  return signatures;
}

function isVersionScheme(scheme: string): boolean {
  if (scheme.length < 2 || scheme.length > 4 || scheme[0] !== 'v') return false;
  for (let index = 1; index < scheme.length; index++) {
    const code = scheme.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function truncate(text: string): string {
  return text.length > 24 ? `${text.slice(0, 24)}…` : text;
}
