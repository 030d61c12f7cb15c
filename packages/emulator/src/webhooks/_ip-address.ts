/**
 * IP address classification for the endpoint URL rule (spec 6.6). Addresses arrive in the
 * canonical text the WHATWG URL parser produces (dotted decimal IPv4, compressed IPv6), so
 * every other notation (decimal, octal, hex, short, percent-encoded) is already folded into
 * these two forms before a range is checked.
 */

type Range = readonly [bits: number, label: string];

// IANA special-purpose registries; everything here is refused by the production rule.
const IPV4_RANGES: ReadonlyArray<readonly [string, ...Range]> = [
  [
    // Stryker disable next-line StringLiteral: parseIpv4('') is null, which divides to 0, the start of 0.0.0.0/8 itself
    '0.0.0.0',
    8,
    'an unspecified ("this network") address',
  ],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (CGNAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved (IETF protocol) address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a reserved (6to4 relay) address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved (benchmarking) address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const IPV6_RANGES: ReadonlyArray<readonly [string, ...Range]> = [
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['64:ff9b:1::', 48, 'a local-use NAT64 address'],
  ['100::', 64, 'a discard-only address'],
  ['2001::', 23, 'a reserved (IETF protocol) address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
  ['5f00::', 16, 'a reserved (SRv6) address'],
  ['fc00::', 7, 'a private (unique local) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

// Prefixes whose low bits carry an IPv4 address: that address decides.
const EMBEDDED_IPV4: ReadonlyArray<readonly [prefix: string, bits: number, shift: bigint]> = [
  ['::ffff:0:0', 96, 0n], // IPv4-mapped
  ['64:ff9b::', 96, 0n], // NAT64 well-known prefix
  ['2002::', 16, 80n], // 6to4
];

/** Parses dotted-decimal IPv4 (four decimal octets) to a number, or `null`. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Parses IPv6 in hex-group form (with at most one `::`, optional trailing dotted quad) to a bigint, or `null`. */
export function parseIpv6(text: string): bigint | null {
  let groups = text.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (dotted) {
    const ipv4 = parseIpv4(dotted[2]!);
    if (ipv4 === null) return null;
    groups = `${dotted[1]}${(ipv4 >>> 16).toString(16)}:${(ipv4 & 0xffff).toString(16)}`;
  }
  const halves = groups.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  // Stryker disable next-line ConditionalExpression: halves[1] exists only with two halves (three or more returned null above)
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  let value = 0n;
  for (const group of [...head, ...Array<string>(missing).fill('0'), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}

function inIpv6Range(address: bigint, prefix: string, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return address >> shift === parseIpv6(prefix)! >> shift;
}

/** Why an IPv4 address is not public, or `null` when it is. */
export function ipv4RefusalReason(address: number): string | null {
  for (const [prefix, bits, label] of IPV4_RANGES) {
    const size = 2 ** (32 - bits);
    if (Math.floor(address / size) === Math.floor(parseIpv4(prefix)! / size)) return label;
  }
  return null;
}

/** Why an IPv6 address is not public, or `null` when it is (only global unicast 2000::/3 can be). */
export function ipv6RefusalReason(address: bigint): string | null {
  for (const [prefix, bits, shift] of EMBEDDED_IPV4) {
    if (inIpv6Range(address, prefix, bits)) {
      const reason = ipv4RefusalReason(Number((address >> shift) & 0xffffffffn));
      return reason && `${reason} (embedded IPv4)`;
    }
  }
  for (const [prefix, bits, label] of IPV6_RANGES) {
    if (inIpv6Range(address, prefix, bits)) return label;
  }
  return inIpv6Range(address, '2000::', 3) ? null : 'a reserved address';
}

/** Whether the address is loopback, counting IPv4-mapped loopback (`::ffff:127.x.y.z`). */
export function isLoopbackAddress(address: string): boolean {
  const ipv4 = parseIpv4(address);
  if (ipv4 !== null) return ipv4 >>> 24 === 127;
  const ipv6 = parseIpv6(address);
  if (ipv6 === null) return false;
  if (ipv6 === 1n) return true;
  return inIpv6Range(ipv6, '::ffff:0:0', 96) && Number((ipv6 >> 24n) & 0xffn) === 127;
}
