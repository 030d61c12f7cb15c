import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from './verify-webhook';
import { WebhookVerificationError } from './webhook-verification-error';

// The exact text of every refusal: it is what a receiver's log shows the developer, so a
// message that lost its words (or its header name) is a regression like a wrong reason.
const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const id = 'evt_1';
const timestamp = 1_790_000_000;
const now = timestamp * 1000;
const body = JSON.stringify({ id, type: 'webhook.test' });
const sign = (payload: string, key = secret) =>
  `v1=${createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('hex')}`;
const headers = (signature = sign(body), at: string | number = timestamp) => ({
  'parley-event-id': id,
  'parley-timestamp': String(at),
  'parley-signature': signature,
});

async function refusal(...args: Parameters<typeof verifyWebhook>): Promise<[string, string]> {
  const error = await verifyWebhook(...args).catch((caught: unknown) => caught);
  expect(Object.getPrototypeOf(error)).toBe(WebhookVerificationError.prototype);
  return [(error as WebhookVerificationError).reason, (error as Error).message];
}

async function callerError(...args: Parameters<typeof verifyWebhook>): Promise<string> {
  const error = await verifyWebhook(...args).catch((caught: unknown) => caught);
  expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
  return (error as TypeError).message;
}

describe('verifyWebhook refusal messages', () => {
  it('names the timestamp header and the direction of a skew', async () => {
    expect(await refusal(body, headers(sign(body), 'soon'), secret, { now })).toEqual([
      'invalid_timestamp',
      'parley-timestamp is not unix seconds',
    ]);
    expect(await refusal(body, headers(), secret, { now: now + 301_000 })).toEqual([
      'timestamp_out_of_range',
      'Timestamp too old by 301 s (tolerance 300 s): a replay or a wrong clock',
    ]);
    expect(await refusal(body, headers(), secret, { now: now - 301_000 })).toEqual([
      'timestamp_out_of_range',
      'Timestamp in the future by 301 s (tolerance 300 s): a replay or a wrong clock',
    ]);
  });

  it('says what is wrong with the signature header, or that it is not text', async () => {
    expect(await refusal(body, headers('v2=abc'), secret, { now })).toEqual([
      'invalid_signature_header',
      'Bad parley-signature: no v1= signature',
    ]);
    const notText = { ...headers(), 'parley-signature': 42 } as never;
    expect(await refusal(body, notText, secret, { now })).toEqual([
      'invalid_signature_header',
      'Bad parley-signature: not text',
    ]);
    const idNotText = { ...headers(), 'parley-event-id': 42 } as never;
    expect(await refusal(body, idNotText, secret, { now })).toEqual([
      'signature_mismatch',
      'Signature mismatch: parley-event-id is not text',
    ]);
  });

  it('hints at whitespace when any secret has some, else at the secret and the raw body', async () => {
    const wrong = headers(sign(body, 'whsec_other'));
    expect(await refusal(body, wrong, [secret, ` ${secret}`], { now })).toEqual([
      'signature_mismatch',
      'Signature mismatch: trim the whitespace around the secret',
    ]);
    expect(await refusal(body, wrong, [secret, 'whsec_x'], { now })).toEqual([
      'signature_mismatch',
      "Signature mismatch: check the endpoint's whsec_ secret and pass the raw body",
    ]);
  });

  it('refuses a signed body that is not an event, or names another id', async () => {
    for (const payload of [
      JSON.stringify({ id, type: 7 }),
      JSON.stringify({ type: 'webhook.test' }),
      '"x"',
    ]) {
      expect(await refusal(payload, headers(sign(payload)), secret, { now })).toEqual([
        'invalid_payload',
        'Body is not a JSON event',
      ]);
    }
    const other = JSON.stringify({ id: 'evt_2', type: 'webhook.test' });
    expect(await refusal(other, headers(sign(other)), secret, { now })).toEqual([
      'invalid_payload',
      'Body id differs from parley-event-id',
    ]);
  });

  it('names what was passed instead of a raw body', async () => {
    expect(await refusal(42 as never, headers(), secret, { now })).toEqual([
      'invalid_payload',
      'Pass the raw body (string, Uint8Array or ArrayBuffer), not number',
    ]);
    expect(await refusal({ id } as never, headers(), secret, { now })).toEqual([
      'invalid_payload',
      'Pass the raw body (string, Uint8Array or ArrayBuffer), not a parsed object: use request.text() or express.raw()',
    ]);
  });

  it('names the bad option of a caller bug', async () => {
    expect(await callerError(body, headers(), secret, { toleranceSeconds: -1 })).toBe(
      'verifyWebhook: bad toleranceSeconds',
    );
    expect(await callerError(body, headers(), secret, { now: Number.NaN })).toBe('verifyWebhook: bad now');
  });
});
