import { BlockList, isIPv4, isIPv6, SocketAddress } from 'node:net';

/**
 * IP address classification for the endpoint URL rule (spec 6.6), on node:net's `BlockList`.
 * Addresses arrive in the canonical text the WHATWG URL parser produces (dotted decimal IPv4,
 * compressed IPv6), so every other notation (decimal, octal, hex, short, percent-encoded) is
 * already folded into these two forms before a range is checked.
 */

type Range = readonly [prefix: string, bits: number, label: string];

// IANA special-purpose registries; everything here is refused by the production rule.
const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
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

const IPV6_RANGES: readonly Range[] = [
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

/**
 * Prefixes whose low bits carry an IPv4 address, which decides (public, or the reason of its
 * IPv4 range): IPv4-mapped, the NAT64 well-known prefix, 6to4. `image` is where a range lands.
 */
const EMBEDDINGS: ReadonlyArray<{ prefix: string; bits: number; image: (ipv4: string) => string }> = [
  { prefix: '::ffff:0:0', bits: 96, image: (ipv4) => `::ffff:${ipv4}` },
  { prefix: '64:ff9b::', bits: 96, image: (ipv4) => `64:ff9b::${ipv4}` },
  { prefix: '2002::', bits: 16, image: (ipv4) => `2002:${hexGroups(ipv4)}::` },
];

/** `a.b.c.d` as the two IPv6 groups that hold it (`10.0.0.1` → `a00:1`). */
function hexGroups(ipv4: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

type Family = 'ipv4' | 'ipv6';

/** One list per range, with its reason: the ranges of a family never overlap. */
function refusalLists(ranges: readonly Range[], family: Family): ReadonlyArray<readonly [BlockList, string]> {
  return ranges.map(([prefix, bits, label]) => [listOf([[prefix, bits]], family), label]);
}

function listOf(ranges: ReadonlyArray<readonly [prefix: string, bits: number]>, family: Family): BlockList {
  const list = new BlockList();
  for (const [prefix, bits] of ranges) list.addSubnet(prefix, bits, family);
  return list;
}

const IPV4_REFUSALS = refusalLists(IPV4_RANGES, 'ipv4');
// IPv6 lists hold IPv6 subnets only: a BlockList also matches an IPv4-mapped address against its
// IPv4 rules, and the embedded reasons carry their own label.
const EMBEDDED_REFUSALS = refusalLists(
  EMBEDDINGS.flatMap((embedding) =>
    IPV4_RANGES.map(
      ([prefix, bits, label]): Range => [
        embedding.image(prefix),
        embedding.bits + bits,
        `${label} (embedded IPv4)`,
      ],
    ),
  ),
  'ipv6',
);
const EMBEDDING_PREFIXES = listOf(
  EMBEDDINGS.map(({ prefix, bits }) => [prefix, bits]),
  'ipv6',
);
const IPV6_REFUSALS = refusalLists(IPV6_RANGES, 'ipv6');
const GLOBAL_UNICAST = listOf([['2000::', 3]], 'ipv6');
const IPV4_LOOPBACK = listOf([['127.0.0.0', 8]], 'ipv4');
const IPV6_LOOPBACK = listOf(
  [
    ['::1', 128],
    ['::ffff:127.0.0.0', 104],
  ],
  'ipv6',
);

function firstReason(
  lists: ReadonlyArray<readonly [BlockList, string]>,
  address: SocketAddress,
): string | null {
  for (const [list, label] of lists) if (list.check(address)) return label;
  return null;
}

/**
 * Why an IP address is not public, or `null` when it is; `undefined` when the text is no IP
 * address (a host name). For IPv6 only global unicast 2000::/3 can be public, and an address
 * that embeds an IPv4 one (mapped, NAT64, 6to4) is that IPv4 address's case.
 */
export function addressRefusalReason(address: string): string | null | undefined {
  if (isIPv4(address)) return firstReason(IPV4_REFUSALS, new SocketAddress({ address, family: 'ipv4' }));
  // A zone id (`%eth0`) is no part of a host here: the URL parser refuses one.
  if (!isIPv6(address) || address.includes('%')) return undefined;
  const ipv6 = new SocketAddress({ address, family: 'ipv6' });
  const embedded = firstReason(EMBEDDED_REFUSALS, ipv6);
  if (embedded !== null || EMBEDDING_PREFIXES.check(ipv6)) return embedded;
  return firstReason(IPV6_REFUSALS, ipv6) ?? (GLOBAL_UNICAST.check(ipv6) ? null : 'a reserved address');
}

/** Whether the address is loopback, counting IPv4-mapped loopback (`::ffff:127.x.y.z`). */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return IPV4_LOOPBACK.check(address, 'ipv4');
  return isIPv6(address) && !address.includes('%') && IPV6_LOOPBACK.check(address, 'ipv6');
}
