import { lookup } from 'node:dns/promises';
import { DomainError } from '../domain/domain-error';
import { addressRefusalReason, isLoopbackAddress } from './_ip-address';

/**
 * `strict`: the production rule of spec 6.6 (public HTTPS on 443, no credentials, no local,
 * private or reserved address in any notation, also after DNS resolution). `local` (the
 * emulator's default) also accepts http or https to a loopback host on any port (DESIGN §3).
 */
export type UrlPolicy = 'local' | 'strict';

/** Resolves a host name to every address it has. Injected so tests never touch real DNS. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The system resolver (`dns.lookup` with `all: true`), the one a delivery's socket would use. */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })).map((entry) => entry.address);

const MAX_URL_LENGTH = 2048;

/**
 * Refuses with every problem found, so a user fixes them all in one go: `reason` joins them (one
 * problem reads as before), `problems` lists them.
 */
function refuse(...problems: readonly string[]): never {
  const reason = problems.join('; ');
  throw new DomainError('invalid_url', `Endpoint URL refused: ${reason}.`, {
    field: 'url',
    reason,
    problems: [...problems],
  });
}

/** A URL the policy accepted, with the addresses a delivery may connect to. */
export interface CheckedEndpointUrl {
  /** The URL normalised by the WHATWG parser. */
  href: string;
  /**
   * Every address the host was checked at (the literal itself for an IP host): an attempt
   * connects to these and never resolves the name again, so DNS cannot swap in another address
   * between the check and the connection. `null` for a loopback host under `local`, dialled as named.
   */
  addresses: readonly string[] | null;
}

/**
 * Checks an endpoint URL against the policy and returns it normalised by the WHATWG parser.
 * Throws `DomainError('invalid_url')` with the reason (or `validation_error` when it is not a
 * string). Redirects are never followed when delivering, so the checked host is the one called.
 */
export async function checkEndpointUrl(
  input: unknown,
  policy: UrlPolicy,
  resolve: HostResolver = systemResolver,
): Promise<string> {
  return (await checkEndpointTarget(input, policy, resolve)).href;
}

/**
 * {@link checkEndpointUrl}, also answering the checked addresses. A delivery attempt calls it
 * once and connects to exactly those addresses (the host is resolved once per attempt).
 */
export async function checkEndpointTarget(
  input: unknown,
  policy: UrlPolicy,
  resolve: HostResolver = systemResolver,
): Promise<CheckedEndpointUrl> {
  if (typeof input !== 'string' || input.length === 0) {
    throw new DomainError('validation_error', 'url must be a non-empty string.', {
      field: 'url',
      reason: 'required',
    });
  }
  if (input.length > MAX_URL_LENGTH) refuse(`longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('not an absolute URL');
  }
  const problems: string[] = [];
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    problems.push(`scheme ${url.protocol} is not https`);
  if (url.username || url.password) problems.push('credentials in the URL are not allowed');
  const host = unbracketed(url.hostname).replace(/\.$/, '');

  if (policy === 'local' && (host === 'localhost' || isLoopbackAddress(host))) {
    if (problems.length > 0) refuse(...problems);
    return { href: url.href, addresses: null };
  }

  const localHint = policy === 'local' ? ' (http and other ports are accepted only for loopback hosts)' : '';
  if (url.protocol === 'http:') problems.push(`it must use https${localHint}`);
  if (url.port !== '') problems.push(`it must use port 443${localHint}`);
  // A URL without a host (`javascript:…`) has nothing more to check.
  const addresses = host === '' ? [] : await hostProblems(host, problems, resolve);
  if (problems.length > 0) refuse(...problems);
  return { href: url.href, addresses };
}

/** Adds what is wrong with `host` to `problems`; the addresses a delivery may connect to. */
async function hostProblems(host: string, problems: string[], resolve: HostResolver): Promise<string[]> {
  if (host === 'localhost' || host.endsWith('.localhost')) {
    problems.push('localhost is not a public host');
    return [];
  }
  const literal = addressRefusalReason(host);
  if (literal !== undefined) {
    if (literal !== null) problems.push(`${host} is ${literal}`);
    return [host];
  }
  if (!host.includes('.')) {
    problems.push(`${host} is not a public host name`);
    return [];
  }
  let answers: readonly string[];
  try {
    answers = await resolve(host);
  } catch {
    answers = [];
  }
  if (answers.length === 0) {
    problems.push(`${host} could not be resolved`);
    return [];
  }
  const addresses: string[] = [];
  for (const answer of answers) {
    const address = normaliseAddress(answer);
    const reason = addressRefusalReason(address);
    if (reason !== null) problems.push(`${host} resolves to ${answer}, ${reason ?? 'not an IP address'}`);
    addresses.push(address);
  }
  return addresses;
}

// A resolver may answer any textual form (and a zone id, `%eth0`, that a socket address cannot
// carry here); the URL parser folds the rest to the canonical one.
function normaliseAddress(address: string): string {
  const bare = address.split('%')[0]!;
  try {
    return unbracketed(new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname);
  } catch {
    return bare;
  }
}

/** A URL hostname without the brackets of an IPv6 literal (`[::1]` → `::1`). */
function unbracketed(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}
