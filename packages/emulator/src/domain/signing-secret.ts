import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** How long the replaced secret keeps signing after a rotation (spec 6.4, spec 8). */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000;

/** The shape of a signing secret (DESIGN §2): `whsec_` + 32 base62 characters. */
export const SIGNING_SECRET_PATTERN = /^whsec_[A-Za-z0-9]{32}$/;

/** A secret kept valid for a while after a rotation (spec 6.4). */
export interface PreviousSecret {
  secret: string;
  /** Emulator time (ms) after which the secret no longer signs. */
  expires_at: number;
}

/** What signs an endpoint's deliveries: its secret and, during a rotation, the one it replaced. */
export interface EndpointSecrets {
  secret: string;
  previous_secret: PreviousSecret | null;
}

/** A new endpoint signing secret: `whsec_` + 32 base62 characters (DESIGN §2). */
export function generateSigningSecret(): string {
  let secret = 'whsec_';
  // randomInt draws without modulo bias, so every character is uniform over the 62.
  for (let index = 0; index < 32; index++) secret += BASE62[randomInt(62)];
  return secret;
}

/** The secrets that sign a delivery sent at `now`: the current one first, then a still-valid old one. */
export function signingSecrets(endpoint: EndpointSecrets, now: number): string[] {
  const previous = endpoint.previous_secret;
  return previous && now < previous.expires_at ? [endpoint.secret, previous.secret] : [endpoint.secret];
}

/**
 * Rotates the endpoint's secret in place and returns the new one. Spec 6.4: the old secret
 * stays valid 24 h; rotating again during that time replaces the new secret and keeps the
 * oldest one until its original expiry.
 */
export function rotateSigningSecret(
  endpoint: EndpointSecrets,
  now: number,
): { secret: string; previousExpiresAt: number } {
  const previous = endpoint.previous_secret;
  const rotationRunning = previous !== null && now < previous.expires_at;
  if (!rotationRunning) {
    endpoint.previous_secret = { secret: endpoint.secret, expires_at: now + PREVIOUS_SECRET_VALIDITY_MS };
  }
  endpoint.secret = generateSigningSecret();
  return { secret: endpoint.secret, previousExpiresAt: endpoint.previous_secret!.expires_at };
}
