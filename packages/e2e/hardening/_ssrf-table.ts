import type { HostResolver } from '@parley/emulator';

/**
 * A fake DNS for the SSRF suite: names under `parley.test` (reserved, RFC 6761, so a slip to
 * the system resolver could never reach anyone) answer what an attacker's zone would.
 * `localhost` and `*.localhost` answer loopback, as system resolvers do.
 */
export const ZONE: Readonly<Record<string, readonly string[]>> = {
  'hooks.parley.test': ['93.184.216.34'],
  'v6.parley.test': ['2606:4700:4700::1111'],
  'both.parley.test': ['93.184.216.34', '2606:4700:4700::1111'],
  'rebind.parley.test': ['93.184.216.34', '10.0.0.5'],
  'private.parley.test': ['192.168.1.10'],
  'corp.parley.test': ['172.20.0.1'],
  'metadata.parley.test': ['169.254.169.254'],
  'loopback6.parley.test': ['::1'],
  'mapped.parley.test': ['::ffff:127.0.0.1'],
  'ula.parley.test': ['fd00::1'],
  'linklocal6.parley.test': ['fe80::1%eth0'],
  'zero.parley.test': ['0.0.0.0'],
  'cgnat.parley.test': ['100.64.1.1'],
  'decimal.parley.test': ['2130706433'],
  'multicast.parley.test': ['224.0.0.251'],
  'empty.parley.test': [],
  'garbage.parley.test': ['not-an-address'],
};

export const zoneResolver: HostResolver = async (hostname) => {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1'];
  const answer = ZONE[name];
  if (!answer) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
};

/** Public https URLs on 443 (names answered by {@link ZONE}): `strict` accepts them. */
export const ACCEPTED: readonly string[] = [
  'https://hooks.parley.test/webhooks',
  'https://HOOKS.Parley.Test./webhooks',
  'https://hooks.parley.test:443/webhooks?source=parley',
  'https://v6.parley.test/',
  'https://both.parley.test/hooks',
  'https://93.184.216.34/hooks',
  'https://[2606:4700:4700::1111]/hooks',
];

/** Every URL here is refused by `strict` with 400 `invalid_url`; the pattern is what its reason says. */
export const REFUSED: ReadonlyArray<readonly [url: string, reason: RegExp]> = [
  // IPv4 loopback in every notation the WHATWG parser folds to 127.0.0.1
  ['https://127.0.0.1/', /loopback/],
  ['https://127.0.0.1./', /loopback/],
  ['https://127.1/', /loopback/],
  ['https://127.0.1/', /loopback/],
  ['https://2130706433/', /loopback/],
  ['https://0177.0.0.1/', /loopback/],
  ['https://017700000001/', /loopback/],
  ['https://0x7f.0.0.1/', /loopback/],
  ['https://0x7f000001/', /loopback/],
  ['https://0X7F.1/', /loopback/],
  ['https://0177.0x0.0.1/', /loopback/],
  ['https://127.000.000.001/', /loopback/],
  ['https://127.255.255.254/', /loopback/],
  ['https://%31%32%37.0.0.1/', /loopback/],
  ['https://127%2E0%2E0%2E1/', /loopback/],
  // Unicode that folds to loopback (fullwidth and circled digits, ideographic full stops)
  ['https://１２７.０.０.１/', /loopback/],
  ['https://127。0。0。1/', /loopback/],
  ['https://①②⑦.0.0.1/', /loopback/],
  // The unspecified address and "this network"
  ['https://0/', /unspecified/],
  ['https://0x0/', /unspecified/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://000.000.000.000/', /unspecified/],
  ['https://0.1.2.3/', /unspecified/],
  // Private, shared, link-local (cloud metadata) in several notations
  ['https://10.0.0.1/', /private/],
  ['https://10.1/', /private/],
  ['https://0xa.0.0.1/', /private/],
  ['https://167772161/', /private/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.254/', /private/],
  ['https://2886729729/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://0300.0250.0.1/', /private/],
  ['https://0xc0a80001/', /private/],
  ['https://100.64.0.1/', /CGNAT/],
  ['https://100.127.255.254/', /CGNAT/],
  ['https://169.254.169.254/', /link-local/],
  ['https://0xa9fea9fe/', /link-local/],
  ['https://169.254.0.1/', /link-local/],
  // Multicast, reserved, documentation, benchmarking, broadcast
  ['https://224.0.0.1/', /multicast/],
  ['https://239.255.255.250/', /multicast/],
  ['https://240.0.0.1/', /reserved/],
  ['https://255.255.255.255/', /reserved/],
  ['https://192.0.0.1/', /reserved/],
  ['https://192.0.2.1/', /documentation/],
  ['https://198.51.100.7/', /documentation/],
  ['https://203.0.113.9/', /documentation/],
  ['https://198.18.0.1/', /benchmarking/],
  // IPv6: loopback, unspecified, mapped and compatible IPv4, NAT64, 6to4, local ranges
  ['https://[::1]/', /loopback/],
  ['https://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['https://[0000::0001]/', /loopback/],
  ['https://[::]/', /unspecified/],
  ['https://[::ffff:127.0.0.1]/', /loopback.*embedded/],
  ['https://[::ffff:7f00:1]/', /loopback.*embedded/],
  ['https://[::ffff:10.0.0.1]/', /private.*embedded/],
  ['https://[::ffff:a9fe:a9fe]/', /link-local.*embedded/],
  ['https://[::127.0.0.1]/', /reserved/],
  ['https://[::ffff:0:127.0.0.1]/', /reserved/],
  ['https://[64:ff9b::127.0.0.1]/', /loopback.*embedded/],
  ['https://[2002:7f00:1::1]/', /loopback.*embedded/],
  ['https://[fe80::1]/', /link-local/],
  ['https://[febf::1]/', /link-local/],
  ['https://[fc00::1]/', /unique local/],
  ['https://[fd12:3456::1]/', /unique local/],
  ['https://[fec0::1]/', /site-local/],
  ['https://[ff02::1]/', /multicast/],
  ['https://[2001:db8::1]/', /documentation/],
  ['https://[100::1]/', /discard/],
  // Zone ids: the WHATWG parser refuses them outright
  ['https://[fe80::1%25eth0]/', /not an absolute URL/],
  ['https://[::1%251]/', /not an absolute URL/],
  // localhost in every spelling
  ['https://localhost/', /localhost/],
  ['https://LOCALHOST/', /localhost/],
  ['https://LocalHost./', /localhost/],
  ['https://localhost../', /loopback/],
  ['https://app.localhost/', /localhost/],
  ['https://a.b.LOCALHOST./', /localhost/],
  ['https://%6c%6f%63%61%6c%68%6f%73%74/', /localhost/],
  ['https://ｌｏｃａｌｈｏｓｔ/', /localhost/],
  ['https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/', /localhost/],
  // Names whose DNS answer is not public (every answer is checked)
  ['https://rebind.parley.test/', /resolves to 10\.0\.0\.5, a private/],
  ['https://private.parley.test/', /private/],
  ['https://corp.parley.test/', /private/],
  ['https://metadata.parley.test/', /link-local/],
  ['https://loopback6.parley.test/', /loopback/],
  ['https://mapped.parley.test/', /loopback.*embedded/],
  ['https://ula.parley.test/', /unique local/],
  ['https://linklocal6.parley.test/', /link-local/],
  ['https://zero.parley.test/', /unspecified/],
  ['https://cgnat.parley.test/', /CGNAT/],
  ['https://decimal.parley.test/', /loopback/],
  ['https://multicast.parley.test/', /multicast/],
  ['https://empty.parley.test/', /could not be resolved/],
  ['https://garbage.parley.test/', /not an IP address/],
  ['https://nxdomain.parley.test/', /could not be resolved/],
  ['https://intranet/', /not a public host name/],
  // Credentials, ports, schemes
  ['https://user:secret@hooks.parley.test/', /credentials/],
  ['https://user@hooks.parley.test/', /credentials/],
  ['https://:secret@hooks.parley.test/', /credentials/],
  ['https://hooks.parley.test:8443/', /port 443/],
  ['https://hooks.parley.test:80/', /port 443/],
  ['https://93.184.216.34:444/', /port 443/],
  ['http://hooks.parley.test/', /https/],
  ['http://93.184.216.34/', /https/],
  ['http://127.0.0.1:4010/', /https/],
  ['ftp://hooks.parley.test/', /scheme ftp:/],
  ['file:///etc/passwd', /scheme file:/],
  ['gopher://127.0.0.1:6379/_INFO', /scheme gopher:/],
  ['javascript:alert(1)', /scheme javascript:/],
  ['data:text/plain,hi', /scheme data:/],
  ['//hooks.parley.test/', /not an absolute URL/],
];
