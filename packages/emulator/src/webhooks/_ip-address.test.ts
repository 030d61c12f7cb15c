import { describe, expect, test } from 'vitest';
import { addressRefusalReason, isLoopbackAddress } from './_ip-address';

const v4 = addressRefusalReason;
const v6 = addressRefusalReason;

// The text of a URL host or a resolver answer is an address only as node:net reads one: four
// decimal octets, or hex groups with at most one `::` and an optional trailing dotted quad.
describe('which texts are IP addresses', () => {
  test.each([
    ['0.0.0.0', 'an unspecified ("this network") address'],
    ['1.2.3.4', null],
    ['255.255.255.255', 'a reserved address'],
    ['10.0.0.1', 'a private address'],
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    ['1::', 'a reserved address'],
    ['1:2:3:4:5:6:7:8', 'a reserved address'],
    ['1:2:3:4:5:6:7::', 'a reserved address'],
    ['::2:3:4:5:6:7:8', 'a reserved address'],
    ['FFFF::', 'a multicast address'],
    ['::ffff:1.2.3.4', null],
    ['::ffff:192.168.10.200', 'a private address (embedded IPv4)'],
    ['1:2:3:4:5:6:1.2.3.4', 'a reserved address'],
    ['2001:db8::ab:cd', 'a documentation address'],
  ])('%s is an address: %j', (text, reason) => {
    expect(addressRefusalReason(text)).toBe(reason);
  });

  test.each([
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.',
    '256.0.0.1',
    '1.2.3.256',
    '1234.1.1.1',
    '0x1.2.3.4',
    '1x.2.3.4',
    '-1.2.3.4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    'a.b.c.d',
    '',
    ':',
    ':1::',
    '1::2::3',
    '1:2:3:4:5:6:7:8::1::2',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4::5:6:7:8',
    '12345::',
    'x1::',
    '::ffff:1.2.3.4:5',
    '::ffff:1.2.3.4x',
    'g::',
    '::1.2.3.256',
    '::1.2.3',
    '1:2:3:4:5:6:7:1.2.3.4',
    // Text before a line break is part of the address, not skipped.
    '1\n::1.2.3.4',
    'x\n::ffff:127.0.0.1',
    // Not canonical: the URL parser writes 01.2.3.4 as 1.2.3.4 and drops nothing else.
    '01.2.3.4',
    'fe80::1%eth0',
  ])('%j is not an address', (text) => {
    expect(addressRefusalReason(text)).toBeUndefined();
  });
});

describe('IPv4: each special range refused from its first to its last address', () => {
  test.each([
    ['0.0.0.0', '0.255.255.255', 'an unspecified ("this network") address'],
    ['10.0.0.0', '10.255.255.255', 'a private address'],
    ['100.64.0.0', '100.127.255.255', 'a shared (CGNAT) address'],
    ['127.0.0.0', '127.255.255.255', 'a loopback address'],
    ['169.254.0.0', '169.254.255.255', 'a link-local address'],
    ['172.16.0.0', '172.31.255.255', 'a private address'],
    ['192.0.0.0', '192.0.0.255', 'a reserved (IETF protocol) address'],
    ['192.0.2.0', '192.0.2.255', 'a documentation address'],
    ['192.88.99.0', '192.88.99.255', 'a reserved (6to4 relay) address'],
    ['192.168.0.0', '192.168.255.255', 'a private address'],
    ['198.18.0.0', '198.19.255.255', 'a reserved (benchmarking) address'],
    ['198.51.100.0', '198.51.100.255', 'a documentation address'],
    ['203.0.113.0', '203.0.113.255', 'a documentation address'],
    ['224.0.0.0', '239.255.255.255', 'a multicast address'],
    ['240.0.0.0', '255.255.255.255', 'a reserved address'],
  ])('%s – %s: %s', (first, last, label) => {
    expect(v4(first)).toBe(label);
    expect(v4(last)).toBe(label);
  });

  // One past each end of a range: public.
  test.each([
    '1.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.0',
    '192.0.3.0',
    '192.88.98.255',
    '192.88.100.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.99.255',
    '198.51.101.0',
    '203.0.112.255',
    '203.0.114.0',
    '223.255.255.255',
    '8.8.8.8',
    '93.184.216.34',
  ])('%s is public', (address) => {
    expect(v4(address)).toBeNull();
  });
});

describe('IPv6: only global unicast 2000::/3 can be public', () => {
  test.each([
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    ['::2', 'a reserved address'],
    ['64:ff9b:1::', 'a local-use NAT64 address'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'a local-use NAT64 address'],
    ['100::', 'a discard-only address'],
    ['100::ffff:ffff:ffff:ffff', 'a discard-only address'],
    ['100:0:0:1::', 'a reserved address'],
    ['2001::', 'a reserved (IETF protocol) address'],
    ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'a reserved (IETF protocol) address'],
    ['2001:db8::', 'a documentation address'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'a documentation address'],
    ['3fff::', 'a documentation address'],
    ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'a documentation address'],
    ['5f00::', 'a reserved (SRv6) address'],
    ['5f00:ffff::', 'a reserved (SRv6) address'],
    ['fc00::', 'a private (unique local) address'],
    ['fdff:ffff::1', 'a private (unique local) address'],
    ['fe80::', 'a link-local address'],
    ['febf:ffff::', 'a link-local address'],
    ['fec0::', 'a site-local address'],
    ['feff:ffff::', 'a site-local address'],
    ['ff00::', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a reserved address'],
    ['4000::', 'a reserved address'],
    ['fbff:ffff::', 'a reserved address'],
  ])('%s: %s', (address, label) => {
    expect(v6(address)).toBe(label);
  });

  test.each([
    '2000::',
    '2001:200::',
    '2001:db7:ffff::',
    '2001:db9::',
    '3ffe:ffff::',
    '3fff:1000::',
    '2606:4700:4700::1111',
  ])('%s is public', (address) => {
    expect(v6(address)).toBeNull();
  });

  test('an embedded IPv4 address decides: mapped, NAT64 and 6to4', () => {
    expect(v6('::ffff:127.0.0.1')).toBe('a loopback address (embedded IPv4)');
    expect(v6('::ffff:10.0.0.1')).toBe('a private address (embedded IPv4)');
    expect(v6('::ffff:8.8.8.8')).toBeNull();
    expect(v6('64:ff9b::169.254.169.254')).toBe('a link-local address (embedded IPv4)');
    expect(v6('64:ff9b::8.8.8.8')).toBeNull();
    expect(v6('2002:c0a8:101::1')).toBe('a private address (embedded IPv4)');
    expect(v6('2002:808:808::1')).toBeNull();
    expect(v6('2002:808:808:ffff:ffff:ffff:ffff:ffff')).toBeNull();
  });

  test('only the exact embedding prefixes carry an IPv4 address', () => {
    // ::fffe:… and ::1:ffff:… are not IPv4-mapped; 64:ff9b:0:0:0:1:… is not the /96 NAT64 prefix.
    expect(v6('::fffe:8.8.8.8')).toBe('a reserved address');
    expect(v6('::1:ffff:8.8.8.8')).toBe('a reserved address');
    expect(v6('64:ff9b::1:808:808')).toBe('a reserved address');
    expect(v6('2003::')).toBeNull();
  });
});

describe('isLoopbackAddress', () => {
  test.each([
    '127.0.0.1',
    '127.0.0.0',
    '127.255.255.255',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:7fff:ffff',
  ])('%s: loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  test.each([
    '126.255.255.255',
    '128.0.0.0',
    '::',
    '::2',
    '::ffff:126.0.0.1',
    '::ffff:128.0.0.1',
    '::fffe:127.0.0.1',
    '64:ff9b::127.0.0.1',
    '::127.0.0.1',
    'localhost',
    '',
  ])('%j: not loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});
