import { ConfigurationError } from '../errors/parley-error';
import type { WebhookEvent } from '../wire/event';
import { signatureMatches } from './_hmac';
import { readHeader, type WebhookHeaders } from './_read-header';
import { parseSignatureHeader } from './_signature-header';
import { WEBHOOK_HEADERS } from './headers';
import { WebhookVerificationError } from './webhook-verification-error';

export type { WebhookHeaders } from './_read-header';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance between the timestamp and now, both ways; 300 by default. Only `Infinity` disables the check. */
  toleranceSeconds?: number;
  /** The receiver's clock: a Date or milliseconds since the epoch (like `Date.now()`). */
  now?: Date | number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const MAX_TIMESTAMP_DIGITS = 12;
let utf8Decoder: TextDecoder | undefined;

/**
 * Verifies a webhook delivery (spec 6.3, DESIGN §5) and returns its event. Pass the raw body
 * exactly as received, never a re-serialised one.
 *
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.PARLEY_WEBHOOK_SECRET!);
 * if (event.type === 'message.received') console.log(event.data.message.text);
 * @throws {WebhookVerificationError} when the delivery must not be trusted (see its `reason`).
 */
export function verifyWebhook(
  payload: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  // Not `async`: on Node the HMAC is synchronous, and skipping promise hops is a measurable
  // share of a 1 KB verification. Every failure still arrives as a rejection.
  try {
    const body = rawBody(payload);
    const secrets = checkedSecrets(secret);
    const tolerance = checkedTolerance(options?.toleranceSeconds);
    const id = readHeader(headers, WEBHOOK_HEADERS.id);
    const timestampText = readHeader(headers, WEBHOOK_HEADERS.timestamp);
    const signatureHeader = readHeader(headers, WEBHOOK_HEADERS.signature);
    if (!id || !timestampText || !signatureHeader) throw missingHeader(id, timestampText, signatureHeader);
    checkTimestamp(timestampText, tolerance, options?.now);
    const candidates = parseSignatureHeader(signatureHeader);
    if (typeof candidates === 'string') {
      throw new WebhookVerificationError(
        'invalid_signature_header',
        `Malformed ${WEBHOOK_HEADERS.signature} header: ${candidates}`,
      );
    }
    const matched = signatureMatches(secrets, `${id}.${timestampText}.`, body, candidates);
    if (typeof matched === 'boolean') return Promise.resolve(acceptedEvent(matched, secrets, body, id));
    return matched.then((result) => acceptedEvent(result, secrets, body, id));
  } catch (error) {
    return Promise.reject(error);
  }
}

function missingHeader(id: string | undefined, timestamp: string | undefined, signature: string | undefined) {
  const missing = [
    id ? undefined : WEBHOOK_HEADERS.id,
    timestamp ? undefined : WEBHOOK_HEADERS.timestamp,
    signature ? undefined : WEBHOOK_HEADERS.signature,
  ].filter((name) => name !== undefined);
  return new WebhookVerificationError(
    'missing_header',
    `Missing webhook header ${missing.join(', ')}: pass the request's own headers, unchanged`,
  );
}

function checkTimestamp(timestampText: string, tolerance: number, now: Date | number | undefined): void {
  if (!isDigits(timestampText)) {
    throw new WebhookVerificationError(
      'invalid_timestamp',
      `The ${WEBHOOK_HEADERS.timestamp} header must be unix seconds, digits only`,
    );
  }
  const skew = Math.floor(nowMilliseconds(now) / 1000) - Number(timestampText);
  if (Math.abs(skew) > tolerance) {
    const direction = skew > 0 ? `is too old by ${skew} s` : `is in the future by ${-skew} s`;
    throw new WebhookVerificationError(
      'timestamp_out_of_range',
      `The webhook timestamp ${direction} (tolerance ${tolerance} s): a replayed delivery, or a clock out of sync`,
    );
  }
}

function acceptedEvent(
  matched: boolean,
  secrets: readonly string[],
  body: string | Uint8Array,
  id: string,
): WebhookEvent {
  if (!matched) throw new WebhookVerificationError('signature_mismatch', mismatchMessage(secrets));
  // Parsed only now: nothing of an unauthenticated body is ever interpreted.
  const event = parseEvent(body);
  if (event.id !== id) {
    throw new WebhookVerificationError(
      'invalid_payload',
      `The body's id does not equal the ${WEBHOOK_HEADERS.id} header`,
    );
  }
  return event;
}

function rawBody(payload: unknown): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload))
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  const got = payload === null ? 'null' : typeof payload;
  const hint =
    typeof payload === 'object'
      ? ' It looks like an already parsed body: read the raw one (request.text(), express.raw()) instead, since re-serialised JSON changes the signed bytes.'
      : '';
  throw new WebhookVerificationError(
    'invalid_payload',
    `The webhook payload must be the raw body as a string, Uint8Array or ArrayBuffer, got ${got}.${hint}`,
  );
}

const singleSecrets = new Map<string, readonly string[]>();

function checkedSecrets(secret: string | readonly string[]): readonly string[] {
  if (typeof secret === 'string' && secret !== '') {
    let secrets = singleSecrets.get(secret);
    if (secrets === undefined) {
      if (singleSecrets.size >= 32) singleSecrets.clear();
      secrets = [secret];
      singleSecrets.set(secret, secrets);
    }
    return secrets;
  }
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (
    !Array.isArray(secrets) ||
    secrets.length === 0 ||
    secrets.some((each) => typeof each !== 'string' || each === '')
  ) {
    throw new ConfigurationError(
      'verifyWebhook: the signing secret is missing (expected the endpoint\'s "whsec_…" string, e.g. from PARLEY_WEBHOOK_SECRET)',
    );
  }
  return secrets;
}

function checkedTolerance(tolerance: number | undefined): number {
  if (tolerance === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new ConfigurationError('verifyWebhook: `toleranceSeconds` must be a number ≥ 0, or Infinity');
  }
  return tolerance;
}

function nowMilliseconds(now: Date | number | undefined): number {
  if (now === undefined) return Date.now();
  const milliseconds = typeof now === 'number' ? now : now.getTime();
  if (!Number.isFinite(milliseconds))
    throw new ConfigurationError('verifyWebhook: `now` is not a valid time');
  return milliseconds;
}

function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > MAX_TIMESTAMP_DIGITS) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function mismatchMessage(secrets: readonly string[]): string {
  const base = 'The webhook signature does not match';
  if (secrets.some((each) => each.trim() !== each)) {
    return `${base}: the secret has whitespace around it (a trailing newline from an env file?); trim it`;
  }
  return `${base}: check that the secret is this endpoint's whole "whsec_…" string and that the body is the raw one, not re-serialised`;
}

function parseEvent(body: string | Uint8Array): WebhookEvent {
  let parsed: unknown;
  try {
    utf8Decoder ??= new TextDecoder('utf-8', { fatal: true });
    parsed = JSON.parse(typeof body === 'string' ? body : utf8Decoder.decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is not valid UTF-8 JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is not an event object');
  }
  const event = parsed as Partial<WebhookEvent>;
  if (typeof event.type !== 'string' || typeof event.id !== 'string') {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is not an event object');
  }
  return parsed as WebhookEvent;
}
