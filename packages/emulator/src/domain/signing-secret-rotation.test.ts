import { describe, expect, test } from 'vitest';
import {
  type EndpointSecrets,
  PREVIOUS_SECRET_VALIDITY_MS,
  rotateSigningSecret,
  SIGNING_SECRET_PATTERN,
  signingSecrets,
} from './signing-secret';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 9, 14, 9, 30);
const ORIGINAL = `whsec_${'A'.repeat(32)}`;

const endpoint = (): EndpointSecrets => ({ secret: ORIGINAL, previous_secret: null });

describe('signing secrets during a rotation (spec 6.4)', () => {
  test('the replaced secret stays valid exactly 24 hours', () => {
    expect(PREVIOUS_SECRET_VALIDITY_MS).toBe(86_400_000);
  });

  test('without a rotation only the secret signs', () => {
    expect(signingSecrets(endpoint(), T0)).toEqual([ORIGINAL]);
  });

  test('the first rotation: a new secret, the old one kept until now + 24 h', () => {
    const secrets = endpoint();
    const rotation = rotateSigningSecret(secrets, T0);
    expect(rotation.secret).toMatch(SIGNING_SECRET_PATTERN);
    expect(rotation.secret).not.toBe(ORIGINAL);
    expect(rotation).toEqual({ secret: secrets.secret, previousExpiresAt: T0 + DAY });
    expect(secrets.previous_secret).toEqual({ secret: ORIGINAL, expires_at: T0 + DAY });
  });

  test('both sign, new first, up to 24 h − 1 ms after the rotation; from 24 h only the new one', () => {
    const secrets = endpoint();
    const { secret } = rotateSigningSecret(secrets, T0);
    expect(signingSecrets(secrets, T0)).toEqual([secret, ORIGINAL]);
    expect(signingSecrets(secrets, T0 + DAY - 1)).toEqual([secret, ORIGINAL]);
    expect(signingSecrets(secrets, T0 + DAY)).toEqual([secret]);
    expect(signingSecrets(secrets, T0 + DAY + 1)).toEqual([secret]);
  });

  test('rotating again during the 24 h replaces the new secret and keeps the oldest until its first expiry', () => {
    const secrets = endpoint();
    const first = rotateSigningSecret(secrets, T0);
    const second = rotateSigningSecret(secrets, T0 + 5 * 60 * 60 * 1000);
    expect(second.secret).not.toBe(first.secret);
    expect(second.previousExpiresAt).toBe(T0 + DAY);
    expect(secrets).toEqual({
      secret: second.secret,
      previous_secret: { secret: ORIGINAL, expires_at: T0 + DAY },
    });
    expect(signingSecrets(secrets, T0 + DAY - 1)).toEqual([second.secret, ORIGINAL]);
  });

  test('still during the rotation 1 ms before its expiry; at the expiry a rotation starts a new 24 h', () => {
    const during = endpoint();
    rotateSigningSecret(during, T0);
    const late = rotateSigningSecret(during, T0 + DAY - 1);
    expect(late.previousExpiresAt).toBe(T0 + DAY);
    expect(during.previous_secret).toEqual({ secret: ORIGINAL, expires_at: T0 + DAY });

    const after = endpoint();
    const first = rotateSigningSecret(after, T0);
    const next = rotateSigningSecret(after, T0 + DAY);
    expect(next.previousExpiresAt).toBe(T0 + 2 * DAY);
    expect(after.previous_secret).toEqual({ secret: first.secret, expires_at: T0 + 2 * DAY });
    expect(signingSecrets(after, T0 + DAY)).toEqual([next.secret, first.secret]);
  });

  test('each rotation draws a fresh secret', () => {
    const secrets = endpoint();
    const drawn = new Set([ORIGINAL]);
    for (let index = 0; index < 20; index++) drawn.add(rotateSigningSecret(secrets, T0 + index).secret);
    expect(drawn.size).toBe(21);
  });
});

describe('SIGNING_SECRET_PATTERN (DESIGN §2)', () => {
  test.each([ORIGINAL, `whsec_${'0123456789abcdefghijklmnopqrstuv'}`, `whsec_${'Zz9'.repeat(10)}Zz`])(
    '%s is a signing secret',
    (secret) => {
      expect(SIGNING_SECRET_PATTERN.test(secret)).toBe(true);
    },
  );

  test.each([
    `whsec_${'A'.repeat(31)}`,
    `whsec_${'A'.repeat(33)}`,
    `whsec-${'A'.repeat(32)}`,
    `WHSEC_${'A'.repeat(32)}`,
    `xwhsec_${'A'.repeat(32)}`,
    `whsec_${'A'.repeat(31)}-`,
    `whsec_${'A'.repeat(31)}_`,
    `whsec_${'A'.repeat(32)}\n`,
    `whsec_${'A'.repeat(31)}é`,
  ])('%j is not', (secret) => {
    expect(SIGNING_SECRET_PATTERN.test(secret)).toBe(false);
  });
});
