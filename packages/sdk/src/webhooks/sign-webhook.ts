import { ConfigurationError } from '../errors/parley-error';
import { signHex } from './_hmac';
import { WEBHOOK_HEADERS } from './headers';

/** What {@link signWebhook} signs. */
export interface SignWebhookParams {
  /** The exact body that will be sent. */
  payload: string | Uint8Array;
  /** One secret, or several during a rotation (new first): one `v1=` each, in this order. */
  secret: string | readonly string[];
  /** The event id (`evt_…`), also the `Parley-Event-Id` header. */
  id: string;
  /** Unix time in seconds; defaults to now. */
  timestamp?: number;
}

/** The three webhook headers, keyed by their lower-case names. */
export type SignedWebhookHeaders = Record<(typeof WEBHOOK_HEADERS)[keyof typeof WEBHOOK_HEADERS], string>;

/**
 * Signs a webhook delivery exactly as Parley does (DESIGN §3): HMAC-SHA256 over
 * `{id}.{timestamp}.{body}`, lowercase hex. For tests of your receiver and for the emulator.
 *
 * @example
 * const headers = await signWebhook({ payload: body, secret: 'whsec_…', id: 'evt_…' });
 * await fetch(url, { method: 'POST', body, headers });
 */
export async function signWebhook(params: SignWebhookParams): Promise<SignedWebhookHeaders> {
  const secrets = typeof params.secret === 'string' ? [params.secret] : params.secret;
  if (secrets.length === 0 || secrets.some((secret) => typeof secret !== 'string' || secret === '')) {
    throw new ConfigurationError('signWebhook: `secret` must be a non-empty string or array of them');
  }
  if (typeof params.id !== 'string' || params.id === '') {
    throw new ConfigurationError('signWebhook: `id` must be the event id');
  }
  const timestamp = params.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new ConfigurationError('signWebhook: `timestamp` must be whole unix seconds');
  }
  const prefix = `${params.id}.${timestamp}.`;
  const signatures = await Promise.all(secrets.map((secret) => signHex(secret, prefix, params.payload)));
  return {
    [WEBHOOK_HEADERS.id]: params.id,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signatures.map((signature) => `v1=${signature}`).join(','),
  };
}
