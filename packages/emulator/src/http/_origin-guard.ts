import { DomainError } from '../domain/domain-error';

/**
 * Refuses a control-API call a browser makes on behalf of another site: an `Origin` that is not
 * the emulator's own (same host and port as the request's `Host`), or `Sec-Fetch-Site: cross-site`.
 * Scripts, the CLI and tests send neither header and pass; the console, served by the emulator
 * itself, sends its own origin. Without this a foreign page could POST a reset or a secret rotation
 * (a "simple" request needs no preflight, and the answer need not be readable to do harm).
 */
export function assertSameOriginCaller(request: Request, url: URL): void {
  if (request.headers.get('sec-fetch-site') === 'cross-site') refuse('Sec-Fetch-Site: cross-site');
  const origin = request.headers.get('origin');
  if (origin === null) return;
  const host = request.headers.get('host') ?? url.host;
  let originHost: string;
  try {
    const parsed = new URL(origin);
    originHost = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : '';
  } catch {
    originHost = '';
  }
  if (originHost === '' || originHost.toLowerCase() !== host.toLowerCase()) refuse(`Origin ${origin}`);
}

function refuse(what: string): never {
  throw new DomainError(
    'origin_not_allowed',
    `The control API answers only the emulator's own console and non-browser clients; refused ${what}.`,
  );
}
