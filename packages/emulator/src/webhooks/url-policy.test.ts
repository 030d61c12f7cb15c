import { describe, expect, it } from 'vitest';
import { checkEndpointTarget, checkEndpointUrl, type HostResolver } from './url-policy';

// A fake DNS: no real lookups in tests.
const zone: Record<string, readonly string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'rebind.example.com': ['93.184.216.34', '10.0.0.5'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'ula.example.com': ['fd00::1'],
  'odd.example.com': ['0x5d.184.216.34', '2606:4700:4700:0:0:0:0:1111'],
  'empty.example.com': [],
  'alias.example.com': ['not-an-ip'],
  'scoped.example.com': ['fe80::1%eth0'],
  'scoped-public.example.com': ['2606:4700:4700::1111%eth0'],
};
const lookups: string[] = [];
const resolver: HostResolver = async (hostname) => {
  lookups.push(hostname);
  const addresses = zone[hostname];
  if (!addresses) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

async function reason(url: unknown, policy: 'local' | 'strict'): Promise<string | null> {
  try {
    await checkEndpointUrl(url, policy, resolver);
    return null;
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid_url', status: 400, details: { field: 'url' } });
    return (error as { details: { reason: string } }).details.reason;
  }
}

const PUBLIC_HTTPS = [
  'https://hooks.example.com/parley',
  'https://hooks.example.com:443/parley',
  'https://HOOKS.example.com./parley',
  'https://93.184.216.34/hooks',
  'https://[2606:4700:4700::1111]/hooks',
];

// Each refused in strict, with a word its reason must contain.
const REFUSED_IN_STRICT: Array<[url: string, reason: RegExp]> = [
  ['http://hooks.example.com/', /https/],
  ['https://hooks.example.com:8443/', /port 443/],
  ['https://user:pw@hooks.example.com/', /credentials/],
  ['https://token@hooks.example.com/', /credentials/],
  ['https://localhost/', /localhost/],
  ['https://localhost./', /localhost/],
  ['https://app.localhost/', /localhost/],
  ['https://127.0.0.1/', /loopback/],
  ['https://127.1/', /loopback/],
  ['https://2130706433/', /loopback/],
  ['https://0177.0.0.1/', /loopback/],
  ['https://0x7f.1/', /loopback/],
  ['https://0x7f000001/', /loopback/],
  ['https://%31%32%37.0.0.1/', /loopback/],
  ['https://[::1]/', /loopback/],
  ['https://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['https://[::ffff:127.0.0.1]/', /loopback.*embedded/],
  ['https://[::ffff:7f00:1]/', /loopback.*embedded/],
  ['https://[::ffff:10.0.0.1]/', /private.*embedded/],
  ['https://[64:ff9b::169.254.169.254]/', /link-local.*embedded/],
  ['https://[64:ff9b:1::a00:1]/', /NAT64/],
  ['https://[2002:c0a8:101::1]/', /private.*embedded/],
  ['https://[::127.0.0.1]/', /reserved/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://[::]/', /unspecified/],
  ['https://10.1.2.3/', /private/],
  ['https://012.1.2.3/', /private/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.255/', /private/],
  ['https://192.168.0.1/', /private/],
  ['https://3232235521/', /private/],
  ['https://169.254.169.254/', /link-local/],
  ['https://100.64.0.1/', /CGNAT/],
  ['https://192.0.0.8/', /reserved/],
  ['https://192.0.2.1/', /documentation/],
  ['https://198.18.0.1/', /benchmarking/],
  ['https://224.0.0.1/', /multicast/],
  ['https://239.255.255.250/', /multicast/],
  ['https://240.0.0.1/', /reserved/],
  ['https://255.255.255.255/', /reserved/],
  ['https://[fe80::1]/', /link-local/],
  ['https://[fc00::1]/', /unique local/],
  ['https://[fd12:3456::1]/', /unique local/],
  ['https://[fec0::1]/', /site-local/],
  ['https://[ff02::1]/', /multicast/],
  ['https://[2001:db8::1]/', /documentation/],
  ['https://[2001::1]/', /reserved/],
  ['https://[100::1]/', /discard/],
  ['https://[4000::1]/', /reserved/],
  ['https://intranet/', /not a public host name/],
  ['https://rebind.example.com/', /resolves to 10\.0\.0\.5, a private address/],
  ['https://mapped.example.com/', /resolves to ::ffff:127\.0\.0\.1, a loopback/],
  ['https://metadata.example.com/', /link-local/],
  ['https://ula.example.com/', /unique local/],
  ['https://nowhere.example.com/', /could not be resolved/],
  ['ftp://hooks.example.com/', /scheme ftp:/],
  ['javascript:alert(1)', /scheme javascript:/],
  ['hooks.example.com/parley', /not an absolute URL/],
  ['https://', /not an absolute URL/],
  [`https://hooks.example.com/${'a'.repeat(2100)}`, /longer than 2048/],
];

describe('checkEndpointUrl, strict policy (spec 6.6)', () => {
  it.each(PUBLIC_HTTPS)('accepts %s', async (url) => {
    expect(await reason(url, 'strict')).toBeNull();
  });

  it.each(REFUSED_IN_STRICT)('refuses %s', async (url, expected) => {
    expect(await reason(url, 'strict')).toMatch(expected);
  });

  it('returns the URL normalised by the WHATWG parser and resolves only host names', async () => {
    lookups.length = 0;
    expect(await checkEndpointUrl('https://HOOKS.Example.com:443/a/../p?q=1', 'strict', resolver)).toBe(
      'https://hooks.example.com/p?q=1',
    );
    await checkEndpointUrl('https://93.184.216.34/', 'strict', resolver);
    expect(lookups).toEqual(['hooks.example.com']);
  });

  it('answers validation_error when url is not a string', async () => {
    for (const url of [undefined, 42, '', { href: 'https://hooks.example.com/' }]) {
      await expect(checkEndpointUrl(url, 'strict', resolver)).rejects.toMatchObject({
        code: 'validation_error',
        details: { field: 'url' },
      });
    }
  });
});

const LOOPBACK = [
  'http://127.0.0.1:8080/hooks',
  'https://127.0.0.1/hooks',
  'http://127.1:3000/',
  'http://127.255.255.254:1/',
  'http://2130706433:9000/',
  'http://localhost:3000/webhooks',
  'http://LOCALHOST./x',
  'http://[::1]:9000/',
  'http://[::ffff:127.0.0.1]:9000/',
];

describe('checkEndpointUrl, local policy (the emulator default)', () => {
  it.each(LOOPBACK)('accepts the loopback URL %s, which strict refuses', async (url) => {
    expect(await reason(url, 'local')).toBeNull();
    expect(await reason(url, 'strict')).not.toBeNull();
  });

  it.each(PUBLIC_HTTPS)('accepts public https %s', async (url) => {
    expect(await reason(url, 'local')).toBeNull();
  });

  it.each([
    ['http://hooks.example.com/', /https.*loopback hosts/],
    ['https://hooks.example.com:8443/', /port 443.*loopback hosts/],
    ['http://10.0.0.1:8080/', /https/],
    ['https://10.0.0.1/', /private/],
    ['https://[fe80::1]/', /link-local/],
    ['http://user:pw@127.0.0.1:8080/', /credentials/],
    ['http://app.localhost:3000/', /https/],
    ['https://rebind.example.com/', /private/],
    ['ws://127.0.0.1:8080/', /scheme ws:/],
  ])('refuses %s', async (url, expected) => {
    expect(await reason(url, 'local')).toMatch(expected);
  });
});

describe('checkEndpointTarget: the addresses an attempt connects to', () => {
  it('answers every checked address of a name, in canonical form, after one lookup', async () => {
    lookups.length = 0;
    expect(await checkEndpointTarget('https://hooks.example.com/p', 'strict', resolver)).toEqual({
      href: 'https://hooks.example.com/p',
      addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });
    expect(await checkEndpointTarget('https://odd.example.com/', 'local', resolver)).toMatchObject({
      addresses: ['93.184.216.34', '2606:4700:4700::1111'],
    });
    expect(lookups).toEqual(['hooks.example.com', 'odd.example.com']);
  });

  it('answers the literal of an IP host, and null for a loopback host under local (dialled as named)', async () => {
    expect(await checkEndpointTarget('https://[2606:4700:4700::1111]/', 'strict', resolver)).toMatchObject({
      addresses: ['2606:4700:4700::1111'],
    });
    expect(await checkEndpointTarget('https://0x5d.184.216.34/', 'strict', resolver)).toMatchObject({
      addresses: ['93.184.216.34'],
    });
    expect(await checkEndpointTarget('http://localhost:3000/', 'local', resolver)).toEqual({
      href: 'http://localhost:3000/',
      addresses: null,
    });
  });
});

describe('checkEndpointUrl: the exact reason of each refusal', () => {
  const LOCAL_HINT = ' (http and other ports are accepted only for loopback hosts)';

  it.each([
    ['http://hooks.example.com/', 'strict', 'it must use https'],
    ['http://hooks.example.com/', 'local', `it must use https${LOCAL_HINT}`],
    ['https://hooks.example.com:8443/', 'strict', 'it must use port 443'],
    ['https://hooks.example.com:8443/', 'local', `it must use port 443${LOCAL_HINT}`],
    ['https://localhost/', 'strict', 'localhost is not a public host'],
    ['https://app.localhost/', 'strict', 'localhost is not a public host'],
    ['https://app.localhost/', 'local', 'localhost is not a public host'],
    ['https://intranet/', 'strict', 'intranet is not a public host name'],
    ['https://10.1.2.3/', 'strict', '10.1.2.3 is a private address'],
    ['https://[::1]/', 'strict', '::1 is a loopback address'],
    ['https://rebind.example.com/', 'strict', 'rebind.example.com resolves to 10.0.0.5, a private address'],
    [
      'https://scoped.example.com/',
      'strict',
      'scoped.example.com resolves to fe80::1%eth0, a link-local address',
    ],
    ['https://alias.example.com/', 'strict', 'alias.example.com resolves to not-an-ip, not an IP address'],
    ['https://empty.example.com/', 'strict', 'empty.example.com could not be resolved'],
    ['https://nowhere.example.com/', 'strict', 'nowhere.example.com could not be resolved'],
    ['ftp://hooks.example.com/', 'local', 'scheme ftp: is not https'],
    ['https://user@hooks.example.com/', 'strict', 'credentials in the URL are not allowed'],
    ['http://:pw@127.0.0.1:8080/', 'local', 'credentials in the URL are not allowed'],
    ['hooks.example.com/parley', 'strict', 'not an absolute URL'],
  ] as const)('%s (%s): %s', async (url, policy, expected) => {
    await expect(checkEndpointUrl(url, policy, resolver)).rejects.toMatchObject({
      code: 'invalid_url',
      status: 400,
      message: `Endpoint URL refused: ${expected}.`,
      details: { field: 'url', reason: expected },
    });
  });

  it('2,048 characters accepted, 2,049 refused', async () => {
    const base = 'https://hooks.example.com/';
    const longest = base + 'a'.repeat(2048 - base.length);
    expect(await checkEndpointUrl(longest, 'strict', resolver)).toBe(longest);
    await expect(checkEndpointUrl(`${longest}a`, 'strict', resolver)).rejects.toMatchObject({
      details: { reason: 'longer than 2048 characters' },
    });
  });

  it('not a string: validation_error, url required', async () => {
    await expect(checkEndpointUrl('', 'local', resolver)).rejects.toMatchObject({
      code: 'validation_error',
      status: 400,
      message: 'url must be a non-empty string.',
      details: { field: 'url', reason: 'required' },
    });
  });

  it('a resolver answer with a zone id is checked and dialled without it', async () => {
    expect(await checkEndpointTarget('https://scoped-public.example.com/', 'strict', resolver)).toEqual({
      href: 'https://scoped-public.example.com/',
      addresses: ['2606:4700:4700::1111'],
    });
  });
});

describe('checkEndpointUrl: every problem at once', () => {
  const LOCAL_HINT = ' (http and other ports are accepted only for loopback hosts)';

  it.each([
    ['http://10.0.0.5/hook', 'local', [`it must use https${LOCAL_HINT}`, '10.0.0.5 is a private address']],
    ['http://10.0.0.5/hook', 'strict', ['it must use https', '10.0.0.5 is a private address']],
    [
      'http://user:pw@10.0.0.5:8080/',
      'strict',
      [
        'credentials in the URL are not allowed',
        'it must use https',
        'it must use port 443',
        '10.0.0.5 is a private address',
      ],
    ],
    [
      'https://token@intranet:8443/',
      'local',
      [
        'credentials in the URL are not allowed',
        `it must use port 443${LOCAL_HINT}`,
        'intranet is not a public host name',
      ],
    ],
    [
      'http://localhost:3000/',
      'strict',
      ['it must use https', 'it must use port 443', 'localhost is not a public host'],
    ],
    [
      'http://rebind.example.com/',
      'strict',
      ['it must use https', 'rebind.example.com resolves to 10.0.0.5, a private address'],
    ],
    ['ftp://10.0.0.1/', 'local', ['scheme ftp: is not https', '10.0.0.1 is a private address']],
    ['http://:pw@127.0.0.1:8080/', 'local', ['credentials in the URL are not allowed']],
  ] as const)('%s (%s): %j', async (url, policy, problems) => {
    const reason = problems.join('; ');
    await expect(checkEndpointUrl(url, policy, resolver)).rejects.toMatchObject({
      code: 'invalid_url',
      status: 400,
      message: `Endpoint URL refused: ${reason}.`,
      details: { field: 'url', reason, problems: [...problems] },
    });
  });

  it('one problem: the same reason, and problems holds it alone', async () => {
    await expect(checkEndpointUrl('https://10.0.0.5/hook', 'local', resolver)).rejects.toMatchObject({
      message: 'Endpoint URL refused: 10.0.0.5 is a private address.',
      details: {
        field: 'url',
        reason: '10.0.0.5 is a private address',
        problems: ['10.0.0.5 is a private address'],
      },
    });
  });
});
