import type { WebhookEvent } from '../wire/event';
import { signatureMatches } from './_hmac';
import { readHeader, type WebhookHeaders } from './_read-header';
import { secretList } from './_secret-list';
import { parseSignatureHeader } from './_signature-header';
import { WEBHOOK_HEADERS } from './headers';
import { WebhookVerificationError as Refused } from './webhook-verification-error';

export type { WebhookHeaders } from './_read-header';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance between the timestamp and now, both ways; 300 by default. Only `Infinity` disables the check. */
  toleranceSeconds?: number | undefined;
  /** The receiver's clock: a Date or milliseconds since the epoch (like `Date.now()`). */
  now?: Date | number | undefined;
}

// Pure: an app that imports only the client drops it (the two entries share one chunk).
const utf8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies a webhook delivery (spec 6.3, DESIGN §5) and returns its event. Pass the raw body
 * exactly as received, never a re-serialised one.
 *
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.PARLEY_WEBHOOK_SECRET!);
 * if (event.type === 'message.received') console.log(event.data.message.text);
 * @throws {WebhookVerificationError} when the delivery must not be trusted (see its `reason`).
 * @throws {TypeError} when the secret or an option is unusable: a bug to fix, not a bad delivery.
 */
export function verifyWebhook(
  payload: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  // Not `async`: on Node the HMAC is synchronous, and skipping promise hops is a measurable
  // share of a 1 KB verification. Every failure still arrives as a rejection.
  try {
    const body =
      typeof payload === 'string' || payload instanceof Uint8Array
        ? payload
        : payload instanceof ArrayBuffer
          ? new Uint8Array(payload)
          : notRawBody(payload);
    const secrets = secretList(secret, 'verifyWebhook');
    const { toleranceSeconds = 300, now = Date.now() } = options;
    if (!(toleranceSeconds >= 0)) throw new TypeError('verifyWebhook: bad toleranceSeconds');

    const id = readHeader(headers, WEBHOOK_HEADERS.id);
    const timestamp = readHeader(headers, WEBHOOK_HEADERS.timestamp);
    const signature = readHeader(headers, WEBHOOK_HEADERS.signature);
    if (id === undefined || timestamp === undefined || signature === undefined) {
      const missing = Object.values(WEBHOOK_HEADERS).filter(
        (name) => readHeader(headers, name) === undefined,
      );
      throw new Refused('missing_header', `Missing header ${missing.join(', ')}`);
    }
    // A value that is not text (null) fails each header's own check below, never a TypeError.
    const seconds = timestamp === null ? -1 : unixSeconds(timestamp);
    if (seconds < 0) {
      throw new Refused('invalid_timestamp', `${WEBHOOK_HEADERS.timestamp} is not unix seconds`);
    }
    const skew = Math.floor(+now / 1000) - seconds;
    if (Number.isNaN(skew)) throw new TypeError('verifyWebhook: bad now');
    if (Math.abs(skew) > toleranceSeconds) {
      throw new Refused(
        'timestamp_out_of_range',
        // Stryker disable next-line EqualityOperator: equivalent, a skew of 0 is never out of range
        `Timestamp ${skew > 0 ? 'too old' : 'in the future'} by ${Math.abs(skew)} s (tolerance ${toleranceSeconds} s): a replay or a wrong clock`,
      );
    }
    const candidates = signature === null ? 'not text' : parseSignatureHeader(signature);
    if (typeof candidates === 'string') {
      throw new Refused('invalid_signature_header', `Bad ${WEBHOOK_HEADERS.signature}: ${candidates}`);
    }
    // An id that is not text was never signed: refused as any other wrong id is.
    if (id === null)
      throw new Refused('signature_mismatch', `Signature mismatch: ${WEBHOOK_HEADERS.id} is not text`);
    const matched = signatureMatches(secrets, `${id}.${timestamp}.`, body, candidates);
    // The node implementation answers synchronously, the Web Crypto one with a promise.
    return typeof matched === 'boolean'
      ? Promise.resolve(acceptedEvent(matched, secrets, body, id))
      : matched.then((isMatch) => acceptedEvent(isMatch, secrets, body, id));
  } catch (error) {
    return Promise.reject(error);
  }
}

function acceptedEvent(matched: boolean, secrets: readonly string[], body: string | Uint8Array, id: string) {
  if (!matched) {
    throw new Refused(
      'signature_mismatch',
      secrets.some((each) => each.trim() !== each)
        ? 'Signature mismatch: trim the whitespace around the secret'
        : "Signature mismatch: check the endpoint's whsec_ secret and pass the raw body",
    );
  }
  // Parsed only now: nothing of an unauthenticated body is ever interpreted.
  let event: Partial<WebhookEvent> | null;
  try {
    event = JSON.parse(typeof body === 'string' ? body : utf8.decode(body));
  } catch {
    event = null;
  }
  if (typeof event?.type !== 'string' || typeof event.id !== 'string') {
    throw new Refused('invalid_payload', 'Body is not a JSON event');
  }
  if (event.id !== id) throw new Refused('invalid_payload', `Body id differs from ${WEBHOOK_HEADERS.id}`);
  return event as WebhookEvent;
}

/**
 * The value of 1 to 12 ASCII digits, else -1. One pass over the text instead of a regular
 * expression and a conversion: together ~4 % of a 1 KB verification (bench/verify-webhook.mjs).
 */
function unixSeconds(text: string): number {
  let value = text.length > 0 && text.length < 13 ? 0 : -1;
  for (let index = 0; index < text.length && value >= 0; index++) {
    const digit = text.charCodeAt(index) - 48;
    value = digit >= 0 && digit < 10 ? value * 10 + digit : -1;
  }
  return value;
}

function notRawBody(payload: unknown): never {
  throw new Refused(
    'invalid_payload',
    `Pass the raw body (string, Uint8Array or ArrayBuffer), not ${typeof payload === 'object' ? 'a parsed object: use request.text() or express.raw()' : typeof payload}`,
  );
}
