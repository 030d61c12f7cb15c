import { hash } from 'node:crypto';
import { canonicalJson } from '@parley/sdk';
import { sendBodyCanonicalJson } from './_send-body-canonical-json';
import { DomainError } from './domain-error';
import type { IdempotencyRecord, MessageRecord } from './records';

/** How long an idempotency key is remembered (DESIGN §2). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/**
 * Checks the `Idempotency-Key` header: present (else 400 `idempotency_key_required`), and 1–255
 * printable ASCII (else 400 `validation_error`). An empty header is present but malformed, as
 * docs/openapi.yaml's `minLength: 1` says: the caller sent the header and gets told its rule.
 */
export function parseIdempotencyKey(header: string | null): string {
  if (header === null) {
    throw new DomainError(
      'idempotency_key_required',
      'POST /v1/messages needs an Idempotency-Key header: a unique string per send, reused only to retry it.',
    );
  }
  if (!KEY_PATTERN.test(header)) {
    throw new DomainError(
      'validation_error',
      'Idempotency-Key must be 1 to 255 printable ASCII characters.',
      {
        field: 'Idempotency-Key',
        reason: 'invalid_format',
      },
    );
  }
  return header;
}

/** Where a key's record lives: idempotency is scoped to the API key (DESIGN §2). */
export function idempotencySlot(keyId: string, idempotencyKey: string): string {
  return `${keyId}\n${idempotencyKey}`;
}

/** Length of a {@link bodyFingerprint}: base64url of 32 bytes. */
const FINGERPRINT_LENGTH = 43;

/** A stable digest of a request body: the same JSON with keys in any order gives the same one. */
export function bodyFingerprint(body: unknown): string {
  return hash('sha256', sendBodyCanonicalJson(body) ?? canonicalJson(body), 'base64url');
}

/** The record kept for an accepted send: fingerprint then message id. */
export function idempotencyRecord(fingerprint: string, messageId: string): IdempotencyRecord {
  return fingerprint + messageId;
}

/**
 * The message an earlier send with this slot created, or undefined when the key is new or
 * expired (24 h after that message). Throws 409 `idempotency_key_reused` when the key was used
 * with another body.
 */
export function findReplay(
  records: Readonly<Record<string, IdempotencyRecord>>,
  messages: Readonly<Record<string, MessageRecord>>,
  slot: string,
  fingerprint: string,
  now: number,
): MessageRecord | undefined {
  const record = records[slot];
  const original = record === undefined ? undefined : messages[record.slice(FINGERPRINT_LENGTH)];
  if (!record || !original || now - original.accepted_at >= IDEMPOTENCY_TTL_MS) return undefined;
  if (!record.startsWith(fingerprint)) {
    throw new DomainError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body; use a new key for a new send.',
    );
  }
  return original;
}

/** 409 `idempotency_key_in_use`: the first request with this key has not finished. */
export function inUseError(): DomainError {
  return new DomainError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );
}
