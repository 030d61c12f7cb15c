import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as nodeHmac from './_hmac-node';
import * as webHmac from './_hmac-web';
import { signWebhook } from './sign-webhook';
import { verifyWebhook } from './verify-webhook';
import { WebhookVerificationError } from './webhook-verification-error';

const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const otherSecret = 'whsec_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';
const id = 'evt_0123456789abcdef0123456789abcdef';
const timestamp = 1_790_000_000;
const nowMs = timestamp * 1000;
const body = JSON.stringify({
  api_version: '2026-10-14',
  created_at: '2026-09-21T12:00:00Z',
  data: { message: 'Ceci est un test — ça marche ✓' },
  id,
  livemode: false,
  type: 'webhook.test',
});

/** Independent reference signer: node:crypto, not the SDK's own code. */
function sign(key: string, payload: string | Uint8Array, at = timestamp, eventId = id): string {
  return createHmac('sha256', key).update(`${eventId}.${at}.`).update(payload).digest('hex');
}

function headersFor(signature: string, at = timestamp, eventId = id): Record<string, string> {
  return { 'parley-event-id': eventId, 'parley-timestamp': String(at), 'parley-signature': signature };
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('verifyWebhook', () => {
  it('accepts a valid delivery and returns the parsed event', async () => {
    const event = await verifyWebhook(body, headersFor(`v1=${sign(secret, body)}`), secret, { now: nowMs });
    expect(event.type).toBe('webhook.test');
    expect(event.id).toBe(id);
  });

  it('rejects a tampered body and a wrong secret', async () => {
    const headers = headersFor(`v1=${sign(secret, body)}`);
    expect(await reasonOf(verifyWebhook(body.replace('test', 'tset'), headers, secret, { now: nowMs }))).toBe(
      'signature_mismatch',
    );
    expect(await reasonOf(verifyWebhook(body, headers, otherSecret, { now: nowMs }))).toBe(
      'signature_mismatch',
    );
  });
});

describe('signWebhook', () => {
  it('produces what an independent HMAC computes, one v1 per secret in order', async () => {
    const headers = await signWebhook({ payload: body, secret: [secret, otherSecret], id, timestamp });
    expect(headers).toEqual({
      'parley-event-id': id,
      'parley-timestamp': String(timestamp),
      'parley-signature': `v1=${sign(secret, body)},v1=${sign(otherSecret, body)}`,
    });
  });

  it('signs the same with both HMAC implementations', async () => {
    const prefix = `${id}.${timestamp}.`;
    expect(await nodeHmac.signHex(secret, prefix, body)).toBe(sign(secret, body));
    expect(await webHmac.signHex(secret, prefix, body)).toBe(sign(secret, body));
  });
});
