import { signHex } from './_hmac';
import { secretList } from './_secret-list';
import { WEBHOOK_HEADERS } from './headers';

/** What {@link signWebhook} signs. */
export interface SignWebhookParams {
  /** The exact body that will be sent. */
  payload: string | Uint8Array;
  /** One secret, or several during a rotation (new first): one `v1=` each, in this order. */
  secret: string | readonly string[];
  /** The event id (`evt_…`), also the `Parley-Event-Id` header. */
  id: string;
  /** Unix time in whole seconds, 0 or more; defaults to now. */
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
export async function signWebhook({
  payload,
  secret,
  id,
  timestamp = Math.floor(Date.now() / 1000),
}: SignWebhookParams): Promise<SignedWebhookHeaders> {
  const secrets = secretList(secret, 'signWebhook');
  if (typeof id !== 'string' || id === '') throw new TypeError('signWebhook: id must be a non-empty string');
  // 0 is 1970-01-01T00:00:00Z, a valid time; a negative one has no digits-only header form.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`signWebhook: timestamp must be whole unix seconds (0 or more), got ${timestamp}`);
  }
  const prefix = `${id}.${timestamp}.`;
  const signatures = await Promise.all(secrets.map((each) => signHex(each, prefix, payload)));
  return {
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: `${timestamp}`,
    [WEBHOOK_HEADERS.signature]: signatures.map((signature) => `v1=${signature}`).join(),
  };
}
