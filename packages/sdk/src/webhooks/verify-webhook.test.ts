import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { verifyWebhook as VerifyWebhook } from './verify-webhook';
import type {
  WebhookVerificationError as VerificationError,
  WebhookVerificationReason,
} from './webhook-verification-error';
import { isWebhookVerificationError } from './webhook-verification-error';

const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const oldSecret = 'whsec_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';
const id = 'evt_0123456789abcdef0123456789abcdef';
const timestamp = 1_790_000_000;
const now = timestamp * 1000;
const body = JSON.stringify({
  api_version: '2026-10-14',
  created_at: '2026-09-21T12:00:00Z',
  data: { message: 'Ceci est un test — ça marche ✓ 👋' },
  id,
  livemode: false,
  type: 'webhook.test',
});

/** Independent reference signer with node:crypto (never the SDK's own code). */
function sign(
  key: string,
  payload: string | Uint8Array,
  at: string | number = timestamp,
  eventId = id,
): string {
  return createHmac('sha256', key).update(`${eventId}.${at}.`).update(payload).digest('hex');
}

function headersFor(
  signature: string,
  at: string | number = timestamp,
  eventId = id,
): Record<string, string> {
  return { 'parley-event-id': eventId, 'parley-timestamp': String(at), 'parley-signature': signature };
}

const implementations = {
  'Web Crypto': () => import('./_hmac-web'),
  'node:crypto': () => import('./_hmac-node'),
};

describe.each(Object.entries(implementations))('verifyWebhook with %s', (_name, hmacModule) => {
  let verify: typeof VerifyWebhook;
  let Refused: typeof VerificationError;

  beforeAll(async () => {
    vi.resetModules();
    vi.doMock('./_hmac', hmacModule);
    verify = (await import('./verify-webhook')).verifyWebhook;
    // The copy of the error class that this verifyWebhook throws, for exact-class checks.
    Refused = (await import('./webhook-verification-error')).WebhookVerificationError;
    vi.doUnmock('./_hmac');
  });

  async function failure(
    ...args: Parameters<typeof VerifyWebhook>
  ): Promise<{ reason: WebhookVerificationReason; message: string }> {
    const error = await verify(...args).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    // The module was re-imported, so its error class is another copy: the guard must still work.
    if (!isWebhookVerificationError(error))
      throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
    expect(Object.getPrototypeOf(error)).toBe(Refused.prototype);
    return { reason: error.reason, message: error.message };
  }

  /** The TypeError (exactly that class) of a caller's bug. */
  async function callerError(...args: Parameters<typeof VerifyWebhook>): Promise<string> {
    const error = await verify(...args).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
    return (error as TypeError).message;
  }

  const valid = () => headersFor(`v1=${sign(secret, body)}`);

  it('accepts a valid delivery and returns the event', async () => {
    const event = await verify(body, valid(), secret, { now });
    expect(event).toEqual(JSON.parse(body));
    expect(event.type).toBe('webhook.test');
  });

  it('accepts string, Uint8Array, Buffer and ArrayBuffer bodies with non-ASCII text', async () => {
    const bytes = new TextEncoder().encode(body);
    const offset = new Uint8Array(bytes.length + 7);
    offset.set(bytes, 7);
    for (const payload of [body, bytes, Buffer.from(body), bytes.buffer, offset.subarray(7)]) {
      expect((await verify(payload, valid(), secret, { now })).id).toBe(id);
    }
  });

  it('accepts Headers objects and records in any case with array values', async () => {
    const signature = `v1=${sign(secret, body)}`;
    const headers = new Headers(valid());
    expect((await verify(body, headers, secret, { now })).id).toBe(id);
    const polyfilled = { get: (name: string) => headers.get(name) } as unknown as Headers;
    expect((await verify(body, polyfilled, secret, { now })).id).toBe(id);
    const mixedCase = {
      'Parley-Event-Id': id,
      'PARLEY-TIMESTAMP': String(timestamp),
      'Parley-Signature': [signature],
    };
    expect((await verify(body, mixedCase, secret, { now })).id).toBe(id);
    const repeated = { ...valid(), 'parley-signature': [`v1=${'0'.repeat(64)}`, signature] };
    expect((await verify(body, repeated, secret, { now })).id).toBe(id);
  });

  it('rejects a tampered body, id, timestamp and a wrong secret', async () => {
    expect((await failure(body.replace('test', 'tset'), valid(), secret, { now })).reason).toBe(
      'signature_mismatch',
    );
    expect((await failure(body, valid(), oldSecret, { now })).reason).toBe('signature_mismatch');
    const otherId = headersFor(`v1=${sign(secret, body)}`, timestamp, 'evt_ffffffffffffffffffffffffffffffff');
    expect((await failure(body, otherId, secret, { now })).reason).toBe('signature_mismatch');
    const otherTime = headersFor(`v1=${sign(secret, body)}`, timestamp + 1);
    expect((await failure(body, otherTime, secret, { now })).reason).toBe('signature_mismatch');
  });

  it('signs the exact timestamp text', async () => {
    const padded = `0${timestamp}`;
    expect(
      (await verify(body, headersFor(`v1=${sign(secret, body, padded)}`, padded), secret, { now })).id,
    ).toBe(id);
    expect(
      (await failure(body, headersFor(`v1=${sign(secret, body)}`, padded), secret, { now })).reason,
    ).toBe('signature_mismatch');
  });

  it('accepts either side of a rotation, with one or several secrets', async () => {
    const rotating = headersFor(`v1=${sign(secret, body)},v1=${sign(oldSecret, body)}`);
    expect((await verify(body, rotating, secret, { now })).id).toBe(id);
    expect((await verify(body, rotating, oldSecret, { now })).id).toBe(id);
    const oldOnly = headersFor(`v1=${sign(oldSecret, body)}`);
    expect((await verify(body, oldOnly, [secret, oldSecret], { now })).id).toBe(id);
    const spaced = headersFor(`v1=${sign(oldSecret, body)}, v1=${sign(secret, body)}`);
    expect((await verify(body, spaced, secret, { now })).id).toBe(id);
    expect((await failure(body, oldOnly, [secret, 'whsec_other'], { now })).reason).toBe(
      'signature_mismatch',
    );
  });

  it('accepts timestamps exactly 300 s away both ways and refuses 301 s, saying by how much', async () => {
    for (const at of [timestamp - 300, timestamp + 300]) {
      expect((await verify(body, headersFor(`v1=${sign(secret, body, at)}`, at), secret, { now })).id).toBe(
        id,
      );
    }
    const old = await failure(
      body,
      headersFor(`v1=${sign(secret, body, timestamp - 301)}`, timestamp - 301),
      secret,
      { now },
    );
    expect(old).toMatchObject({ reason: 'timestamp_out_of_range' });
    expect(old.message).toMatch(/too old by 301 s/);
    const future = await failure(
      body,
      headersFor(`v1=${sign(secret, body, timestamp + 301)}`, timestamp + 301),
      secret,
      { now },
    );
    expect(future.message).toMatch(/in the future by 301 s/);
  });

  it('uses the real clock by default, takes a Date, and only Infinity disables the window', async () => {
    const yearOld = timestamp - 365 * 86_400;
    const headers = headersFor(`v1=${sign(secret, body, yearOld)}`, yearOld);
    expect((await failure(body, valid(), secret)).reason).toBe('timestamp_out_of_range');
    expect((await verify(body, valid(), secret, { now: new Date(now) })).id).toBe(id);
    expect(
      (await verify(body, headers, secret, { now, toleranceSeconds: Number.POSITIVE_INFINITY })).id,
    ).toBe(id);
    expect((await failure(body, headers, secret, { now, toleranceSeconds: 365 * 86_400 - 1 })).reason).toBe(
      'timestamp_out_of_range',
    );
    const off = headersFor(`v1=${sign(secret, body, timestamp - 1)}`, timestamp - 1);
    expect((await failure(body, off, secret, { now, toleranceSeconds: 0 })).reason).toBe(
      'timestamp_out_of_range',
    );
  });

  it.each(['17900e0000', '-1790000000', ' 1790000000', '1790000000.5', '0x6AB0', '１７９', '9'.repeat(20)])(
    'refuses the timestamp %j as invalid_timestamp',
    async (text) => {
      expect(
        (await failure(body, headersFor(`v1=${sign(secret, body, text)}`, text), secret, { now })).reason,
      ).toBe('invalid_timestamp');
    },
  );

  it('reads the timestamp as 1 to 12 ASCII digits: 12 with leading zeros signed and accepted, 13 refused', async () => {
    const twelve = `00${timestamp}`;
    expect(twelve).toHaveLength(12);
    expect(
      (await verify(body, headersFor(`v1=${sign(secret, body, twelve)}`, twelve), secret, { now })).id,
    ).toBe(id);
    const thirteen = `0${twelve}`;
    expect(
      (await failure(body, headersFor(`v1=${sign(secret, body, thirteen)}`, thirteen), secret, { now }))
        .reason,
    ).toBe('invalid_timestamp');
    // One digit is enough (the epoch, accepted once the window is off); the characters on either
    // side of 0-9, '/' and ':', are not digits anywhere in the text.
    const epoch = headersFor(`v1=${sign(secret, body, '0')}`, '0');
    const unbounded = { now, toleranceSeconds: Number.POSITIVE_INFINITY };
    expect((await verify(body, epoch, secret, unbounded)).id).toBe(id);
    for (const text of ['/', ':', `${timestamp}/`, `:${timestamp}`, `17900/0000`]) {
      expect(
        (await failure(body, headersFor(`v1=${sign(secret, body, text)}`, text), secret, unbounded)).reason,
      ).toBe('invalid_timestamp');
    }
  });

  it.each(['parley-event-id', 'parley-timestamp', 'parley-signature'])('names a missing %s', async (name) => {
    const headers: Record<string, string> = valid();
    delete headers[name];
    const { reason, message } = await failure(body, headers, secret, { now });
    expect(reason).toBe('missing_header');
    expect(message).toContain(name);
  });

  it.each([
    ['a non-hex value', `v1=${'z'.repeat(64)}`],
    ['a short value', `v1=${'a'.repeat(63)}`],
    ['a long value', `v1=${'a'.repeat(65)}`],
    ['another scheme only', `v2=${'a'.repeat(64)}`],
    ['an unknown scheme', `sha256=${'a'.repeat(64)}`],
    ['a bare value', 'a'.repeat(64)],
    ['an empty item', `v1=${'a'.repeat(64)},,v1=${'b'.repeat(64)}`],
    ['a trailing semicolon', `v1=${'a'.repeat(64)};`],
  ])('refuses a signature header with %s', async (_case, header) => {
    expect((await failure(body, headersFor(header), secret, { now })).reason).toBe(
      'invalid_signature_header',
    );
  });

  it('skips future vN= schemes next to a valid v1', async () => {
    const headers = headersFor(`v2=${'f'.repeat(64)},v1=${sign(secret, body)}`);
    expect((await verify(body, headers, secret, { now })).id).toBe(id);
  });

  it('explains a parsed object passed instead of the raw body', async () => {
    const { reason, message } = await failure(JSON.parse(body) as never, valid(), secret, { now });
    expect(reason).toBe('invalid_payload');
    expect(message).toMatch(/parsed/);
  });

  it('points at whitespace around the secret', async () => {
    const { reason, message } = await failure(body, valid(), `${secret}\n`, { now });
    expect(reason).toBe('signature_mismatch');
    expect(message).toMatch(/whitespace/);
  });

  it('refuses a signed body whose id differs from the header, or that is not an event', async () => {
    const other = body.replace(id, 'evt_ffffffffffffffffffffffffffffffff');
    expect((await failure(other, headersFor(`v1=${sign(secret, other)}`), secret, { now })).reason).toBe(
      'invalid_payload',
    );
    for (const payload of [
      'not json',
      '[1,2]',
      '{"id":"evt_0123456789abcdef0123456789abcdef"}',
      new Uint8Array([0xff, 0xfe]),
    ]) {
      expect(
        (await failure(payload, headersFor(`v1=${sign(secret, payload)}`), secret, { now })).reason,
      ).toBe('invalid_payload');
    }
  });

  it('refuses a missing secret or a bad tolerance or clock as a TypeError (a bug, not a bad delivery)', async () => {
    for (const badSecret of ['', [], ['']] as const) {
      await expect(verify(body, valid(), badSecret, { now })).rejects.toBeInstanceOf(TypeError);
    }
    await expect(verify(body, valid(), secret, { now, toleranceSeconds: -1 })).rejects.toBeInstanceOf(
      TypeError,
    );
    await expect(verify(body, valid(), secret, { now: new Date('nope') })).rejects.toBeInstanceOf(TypeError);
  });

  it.each([
    ['parley-event-id', 'signature_mismatch'],
    ['parley-timestamp', 'invalid_timestamp'],
    ['parley-signature', 'invalid_signature_header'],
  ] as const)('refuses a %s value that is not text as %s, never a TypeError', async (name, reason) => {
    // A non-text event id can never have been signed, so it fails as any other wrong id does.
    for (const value of [42, timestamp, 0, true, false, {}, { value: id }, [7], [['a']], ['x', 1], [null]]) {
      const headers = { ...valid(), [name]: value } as never;
      expect((await failure(body, headers, secret, { now })).reason).toBe(reason);
      const polyfilled = {
        get: (key: string) => (key === name ? value : valid()[key]),
      } as unknown as Headers;
      expect((await failure(body, polyfilled, secret, { now })).reason).toBe(reason);
    }
  });

  it.each(['parley-event-id', 'parley-timestamp', 'parley-signature'])(
    'refuses a null, undefined or empty %s as missing_header, naming it',
    async (name) => {
      for (const value of [null, undefined, '', [], ['']]) {
        for (const key of [name, name.toUpperCase()]) {
          const headers: Record<string, unknown> = valid();
          delete headers[name];
          headers[key] = value;
          const { reason, message } = await failure(body, headers as never, secret, { now });
          expect(reason).toBe('missing_header');
          expect(message).toBe(`Missing header ${name}`);
        }
      }
    },
  );

  it('refuses headers that are null or not an object as missing_header', async () => {
    for (const headers of [null, undefined, 42, 'parley-event-id', true, [], [valid()]]) {
      const { reason, message } = await failure(body, headers as never, secret, { now });
      expect(reason).toBe('missing_header');
      expect(message).toBe('Missing header parley-event-id, parley-timestamp, parley-signature');
    }
  });

  it('refuses a payload that is not a raw body as invalid_payload', async () => {
    for (const payload of [
      42,
      null,
      undefined,
      true,
      {},
      [],
      new Uint16Array(4),
      new DataView(new ArrayBuffer(4)),
    ]) {
      expect((await failure(payload as never, valid(), secret, { now })).reason).toBe('invalid_payload');
    }
  });

  it('refuses a signed body with invalid UTF-8 inside valid JSON as invalid_payload', async () => {
    // 0xff can never occur in UTF-8; a lenient decoder would turn it into U+FFFD and accept.
    const [before, after] = body.split('ça');
    const bytes = Buffer.concat([Buffer.from(before!), Buffer.from([0xff]), Buffer.from(`ça${after}`)]);
    expect(JSON.parse(new TextDecoder().decode(bytes)).data.message).toContain('\ufffdça');
    const headers = headersFor(`v1=${sign(secret, bytes)}`);
    for (const payload of [
      bytes,
      new Uint8Array(bytes),
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
    ]) {
      const { reason, message } = await failure(payload, headers, secret, { now });
      expect(reason).toBe('invalid_payload');
      expect(message).toBe('Body is not a JSON event');
    }
  });

  it('refuses a secret list with any unusable member, holes included, as a TypeError', async () => {
    // Holes: every() skips them, and one must not reach the HMAC as an undefined secret.
    const leadingHole: string[] = [];
    leadingHole[1] = secret;
    const middleHole = [secret];
    middleHole[2] = oldSecret;
    for (const badSecret of [
      [secret, ''],
      [secret, 42],
      [secret, null],
      leadingHole,
      middleHole,
      42,
      null,
      {},
      new String(secret),
    ]) {
      expect(await callerError(body, valid(), badSecret as never, { now })).toBe(
        'verifyWebhook: missing whsec_ secret',
      );
    }
    expect((await verify(body, valid(), [oldSecret, secret], { now })).id).toBe(id);
  });
});

describe.each(Object.entries(implementations))('decodeSignature with %s', (_name, hmacModule) => {
  it('decodes 64 hex characters of either case and refuses anything else', async () => {
    const { decodeSignature } = await hmacModule();
    const hex = sign(secret, body);
    // Each implementation keeps the form it compares fastest: raw bytes on Node, hex on the web.
    const asHex = (signature: string | Uint8Array | undefined) =>
      typeof signature === 'string' ? signature : Buffer.from(signature!).toString('hex');
    expect(asHex(decodeSignature(hex))).toBe(hex);
    expect(asHex(decodeSignature(hex.toUpperCase()))).toBe(hex);
    for (const bad of [
      '',
      hex.slice(1),
      `${hex}0`,
      `${hex.slice(0, 63)}g`,
      `g${hex.slice(1)}`,
      `${hex.slice(0, 62)} 0`,
      // Past Latin-1, yet its low byte is 0x61, the code of 'a'.
      `${hex.slice(0, 63)}\u0161`,
      `\u0130${hex.slice(1)}`,
    ]) {
      expect(decodeSignature(bad)).toBeUndefined();
    }
  });

  it('decodes the 64 characters from a start offset to the end of the text', async () => {
    const { decodeSignature } = await hmacModule();
    const hex = sign(secret, body);
    const asHex = (signature: string | Uint8Array | undefined) =>
      typeof signature === 'string' ? signature : Buffer.from(signature!).toString('hex');
    expect(asHex(decodeSignature(`v1=${hex}`, 3))).toBe(hex);
    expect(decodeSignature(`v1=${hex}0`, 3)).toBeUndefined();
    expect(decodeSignature(`v1=${hex.slice(1)}`, 3)).toBeUndefined();
  });
});
