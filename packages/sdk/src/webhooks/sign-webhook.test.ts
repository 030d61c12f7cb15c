import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as nodeHmac from './_hmac-node';
import * as webHmac from './_hmac-web';
import { signWebhook } from './sign-webhook';
import { verifyWebhook } from './verify-webhook';

const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const oldSecret = 'whsec_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';
const id = 'evt_0123456789abcdef0123456789abcdef';
const timestamp = 1_790_000_000;
const body =
  '{"data":{"message":"Grüße — 你好"},"id":"evt_0123456789abcdef0123456789abcdef","type":"webhook.test"}';

function reference(key: string, payload: string | Uint8Array, at = timestamp): string {
  return createHmac('sha256', key).update(`${id}.${at}.`).update(payload).digest('hex');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('signWebhook', () => {
  it('matches an independent HMAC, one v1 per secret in the order given', async () => {
    const headers = await signWebhook({ payload: body, secret: [secret, oldSecret], id, timestamp });
    expect(headers).toEqual({
      'parley-event-id': id,
      'parley-timestamp': String(timestamp),
      'parley-signature': `v1=${reference(secret, body)},v1=${reference(oldSecret, body)}`,
    });
  });

  it('signs bytes exactly like the same text', async () => {
    const bytes = new TextEncoder().encode(body);
    const headers = await signWebhook({ payload: bytes, secret, id, timestamp });
    expect(headers['parley-signature']).toBe(`v1=${reference(secret, bytes)}`);
  });

  it('defaults the timestamp to now, in whole seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(timestamp * 1000 + 999);
    const headers = await signWebhook({ payload: body, secret, id });
    expect(headers['parley-timestamp']).toBe(String(timestamp));
  });

  it('round-trips through verifyWebhook', async () => {
    const headers = await signWebhook({ payload: body, secret, id, timestamp });
    const event = await verifyWebhook(body, headers, secret, { now: timestamp * 1000 });
    expect(event.id).toBe(id);
  });

  it('refuses an empty secret or an id that is not a non-empty string', async () => {
    await expect(signWebhook({ payload: body, secret: [], id })).rejects.toThrow(
      new TypeError('signWebhook: missing whsec_ secret'),
    );
    for (const badId of ['', undefined, 42]) {
      const error = await signWebhook({ payload: body, secret, id: badId as string }).catch(
        (caught) => caught,
      );
      expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
      expect(error.message).toBe('signWebhook: id must be a non-empty string');
    }
  });

  it.each([-1, -1_790_000_000, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'refuses the timestamp %d with a TypeError saying what is expected',
    async (badTimestamp) => {
      const error = await signWebhook({ payload: body, secret, id, timestamp: badTimestamp }).catch(
        (caught: unknown) => caught,
      );
      expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
      expect((error as TypeError).message).toBe(
        `signWebhook: timestamp must be whole unix seconds (0 or more), got ${badTimestamp}`,
      );
    },
  );

  it('signs timestamp 0 (1970-01-01T00:00:00Z), which verifies with the window off', async () => {
    const headers = await signWebhook({ payload: body, secret, id, timestamp: 0 });
    expect(headers).toEqual({
      'parley-event-id': id,
      'parley-timestamp': '0',
      'parley-signature': `v1=${reference(secret, body, 0)}`,
    });
    const event = await verifyWebhook(body, headers, secret, { toleranceSeconds: Number.POSITIVE_INFINITY });
    expect(event.id).toBe(id);
  });

  it('refuses a secret list with a hole or an unusable member instead of signing v1=undefined', async () => {
    const holed: string[] = [];
    holed[1] = secret;
    for (const badSecret of [holed, [secret, ''], [secret, 42], new String(secret)]) {
      const error = await signWebhook({ payload: body, secret: badSecret as never, id, timestamp }).catch(
        (caught: unknown) => caught,
      );
      expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
      expect((error as TypeError).message).toBe('signWebhook: missing whsec_ secret');
    }
  });

  it.each([
    ['node:crypto', nodeHmac],
    ['Web Crypto', webHmac],
  ])('computes the reference HMAC with %s for strings and bytes', async (_name, hmac) => {
    const prefix = `${id}.${timestamp}.`;
    expect(await hmac.signHex(secret, prefix, body)).toBe(reference(secret, body));
    expect(await hmac.signHex(secret, prefix, new TextEncoder().encode(body))).toBe(reference(secret, body));
    // A second call uses the cached key and must give the same answer.
    expect(await hmac.signHex(secret, prefix, body)).toBe(reference(secret, body));
  });
});

describe('node implementation on Node without process.getBuiltinModule (22.0–22.2)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('falls back to Web Crypto with the same results', async () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    vi.resetModules();
    const fallback = await import('./_hmac-node');
    const prefix = `${id}.${timestamp}.`;
    expect(await fallback.signHex(secret, prefix, body)).toBe(reference(secret, body));
    const signature = fallback.decodeSignature(reference(secret, body));
    expect(typeof signature).toBe('string');
    expect(await fallback.signatureMatches([secret], prefix, body, [signature!])).toBe(true);
    expect(await fallback.signatureMatches([oldSecret], prefix, body, [signature!])).toBe(false);
  });
});
