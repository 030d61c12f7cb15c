import type { Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import { DomainError } from './domain-error';
import {
  bodyFingerprint,
  findReplay,
  IDEMPOTENCY_TTL_MS,
  idempotencyRecord,
  idempotencySlot,
  inUseError,
  parseIdempotencyKey,
} from './idempotency';
import type { MessageRecord } from './records';

describe('Idempotency-Key header (DESIGN §2)', () => {
  test('absent: 400 idempotency_key_required', () => {
    expect(thrownDomainError(() => parseIdempotencyKey(null))).toMatchObject({
      code: 'idempotency_key_required',
      status: 400,
      message:
        'POST /v1/messages needs an Idempotency-Key header: a unique string per send, reused only to retry it.',
      details: undefined,
    });
  });

  test.each(['a', ' ', '~'.repeat(255), 'order-42/retry #1', '\x20\x7e'])('%j accepted as is', (key) => {
    expect(parseIdempotencyKey(key)).toBe(key);
  });

  test.each(['', '~'.repeat(256), 'tab\there', 'line\nbreak', 'é', '\x1f', '\x7f', 'ok\n'])(
    '%j: 400 validation_error on the header',
    (key) => {
      expect(thrownDomainError(() => parseIdempotencyKey(key))).toMatchObject({
        code: 'validation_error',
        status: 400,
        message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.',
        details: { field: 'Idempotency-Key', reason: 'invalid_format' },
      });
    },
  );

  test('scoped to the API key: one slot per key id and Idempotency-Key', () => {
    expect(idempotencySlot('key-1', 'order-42')).toBe('key-1\norder-42');
    expect(idempotencySlot('key-2', 'order-42')).not.toBe(idempotencySlot('key-1', 'order-42'));
  });
});

describe('bodyFingerprint', () => {
  test('base64url SHA-256 of the canonical JSON', () => {
    expect(bodyFingerprint({})).toBe('RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o');
    expect(bodyFingerprint({ b: [1, { d: 3, c: 2 }], a: 1 })).toBe(
      'a3qTdeAM4IKHPeLkzthuUl1cDiHLADkwGTXoAn6Oy98',
    );
  });

  test('same body with keys in another order, at any depth: same fingerprint', () => {
    const body = { to: '+15550123456', type: 'template', template: { name: 'hello_world', language: 'en' } };
    const reordered = {
      template: { language: 'en', name: 'hello_world' },
      type: 'template',
      to: '+15550123456',
    };
    expect(bodyFingerprint(reordered)).toBe(bodyFingerprint(body));
  });

  test('another body: another fingerprint', () => {
    const body = { to: '+15550123456', variables: ['a', 'b'] };
    const others = [
      { to: '+15550123457', variables: ['a', 'b'] },
      { to: '+15550123456', variables: ['b', 'a'] },
      { to: '+15550123456', variables: ['a', 'b'], client_reference: null },
      { to: '+15550123456' },
    ];
    for (const other of others) expect(bodyFingerprint(other)).not.toBe(bodyFingerprint(body));
  });
});

describe('findReplay', () => {
  const ACCEPTED = Date.UTC(2026, 9, 14, 9, 30);
  const MESSAGE_ID = '11111111-1111-4111-8111-111111111111';
  const fingerprint = bodyFingerprint({ to: '+15550123456' });
  const slot = idempotencySlot('key-1', 'order-42');
  const record: MessageRecord = {
    message: { id: MESSAGE_ID } as Message,
    application_id: 'a',
    workspace_id: 'w',
    accepted_at: ACCEPTED,
    announced: 0,
  };
  const messages = { [MESSAGE_ID]: record };
  const records = { [slot]: idempotencyRecord(fingerprint, MESSAGE_ID) };

  test('the record is the fingerprint then the message id', () => {
    expect(fingerprint).toHaveLength(43);
    expect(idempotencyRecord(fingerprint, MESSAGE_ID)).toBe(`${fingerprint}${MESSAGE_ID}`);
  });

  test('a new key: nothing to replay', () => {
    expect(
      findReplay(records, messages, idempotencySlot('key-2', 'order-42'), fingerprint, ACCEPTED),
    ).toBeUndefined();
    expect(findReplay({}, messages, slot, fingerprint, ACCEPTED)).toBeUndefined();
  });

  test('same key and body: the original message, up to 24 h − 1 ms; forgotten at 24 h', () => {
    expect(IDEMPOTENCY_TTL_MS).toBe(86_400_000);
    expect(findReplay(records, messages, slot, fingerprint, ACCEPTED)).toBe(record);
    expect(findReplay(records, messages, slot, fingerprint, ACCEPTED + IDEMPOTENCY_TTL_MS - 1)).toBe(record);
    expect(findReplay(records, messages, slot, fingerprint, ACCEPTED + IDEMPOTENCY_TTL_MS)).toBeUndefined();
  });

  test('same key, other body: 409 idempotency_key_reused, until the key is forgotten', () => {
    const other = bodyFingerprint({ to: '+15550123457' });
    expect(
      thrownDomainError(() => findReplay(records, messages, slot, other, ACCEPTED + IDEMPOTENCY_TTL_MS - 1)),
    ).toMatchObject({
      code: 'idempotency_key_reused',
      status: 409,
      message:
        'This Idempotency-Key was already used with a different request body; use a new key for a new send.',
    });
    expect(findReplay(records, messages, slot, other, ACCEPTED + IDEMPOTENCY_TTL_MS)).toBeUndefined();
  });

  test('a record whose message is gone replays nothing', () => {
    expect(findReplay(records, {}, slot, fingerprint, ACCEPTED)).toBeUndefined();
  });

  test('inUseError: 409 idempotency_key_in_use', () => {
    expect(inUseError()).toMatchObject({
      code: 'idempotency_key_in_use',
      status: 409,
      message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
    });
    expect(inUseError()).toBeInstanceOf(DomainError);
  });
});
