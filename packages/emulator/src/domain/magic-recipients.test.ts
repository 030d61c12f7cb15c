import { isPhoneNumber, type Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { DomainError } from './domain-error';
import {
  MAGIC_RECIPIENTS,
  MAGIC_RETRY_AFTER_SECONDS,
  magicRecipient,
  magicRefusal,
  magicSteps,
  UNDELIVERABLE_ERROR,
} from './magic-recipients';
import { messageAt, SANDBOX_STEPS, stepsOf } from './message-lifecycle';
import type { MessageRecord } from './records';
import { SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_CONNECTIONS, SYNTHETIC_RECIPIENT } from './sandbox-fixtures';

const ACCEPTED = Date.UTC(2026, 9, 14, 9, 30, 0);

function queued(to: string, livemode = false): MessageRecord {
  const message: Message = {
    id: '11111111-1111-4111-8111-111111111111',
    object: 'message',
    direction: 'outbound',
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to,
    from: null,
    type: 'text',
    text: 'Bonjour',
    template: null,
    status: 'queued',
    error: null,
    client_reference: null,
    created_at: '2026-10-14T09:30:00.000Z',
    updated_at: '2026-10-14T09:30:00.000Z',
    livemode,
  };
  return { message, application_id: 'a', workspace_id: 'w', accepted_at: ACCEPTED, announced: 0 };
}

/** Status, error code and updated_at at each age. */
const at = (to: string, age: number) => {
  const message = messageAt(queued(to), ACCEPTED + age);
  return [message.status, message.error?.code ?? null, Date.parse(message.updated_at) - ACCEPTED];
};

describe('magic recipients (sandbox)', () => {
  // docs/testing-your-app.md, "Magic recipients": the table users rely on, in its order. Each
  // description says the docs' outcome (GET /_emulator/magic-numbers lists exactly these).
  test('the list: the documented numbers, behaviours and outcomes, in the documented order', () => {
    expect(MAGIC_RECIPIENTS).toEqual([
      {
        number: '+15550100000',
        behaviour: 'unreachable',
        description:
          'Any number ending in 0000: accepted (202) as failed with recipient_unreachable, its status event queued at once.',
      },
      {
        number: '+15550101001',
        behaviour: 'stays_sent',
        description: 'Sent at 2 s, then never delivered: it stays sent.',
      },
      {
        number: '+15550101002',
        behaviour: 'read',
        description: 'Sent at 2 s, delivered at 5 s, read at 10 s, with an event each.',
      },
      {
        number: '+15550101003',
        behaviour: 'late_delivery',
        description: 'Sent at 2 s, delivered late, at 60 s.',
      },
      {
        number: '+15550101004',
        behaviour: 'fails_after_sent',
        description: 'Sent at 2 s, then failed at 5 s with the message error message_undeliverable.',
      },
      {
        number: '+15550101005',
        behaviour: 'connection_inactive',
        description: 'The send is refused: 409 connection_inactive, as if the connection were disconnected.',
      },
      {
        number: '+15550101006',
        behaviour: 'rate_limited',
        description:
          'The send is refused: 429 rate_limited (bucket sends) with Retry-After: 1; nothing is consumed.',
      },
    ]);
    expect(Object.isFrozen(MAGIC_RECIPIENTS)).toBe(true);
  });

  test('each a valid and distinct E.164 number, none a fixture number', () => {
    const numbers = MAGIC_RECIPIENTS.map((recipient) => recipient.number);
    expect(numbers.every(isPhoneNumber)).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
    const fixtures = [
      ...SANDBOX_CONNECTIONS.map((connection) => connection.phone_number),
      SYNTHETIC_RECIPIENT,
    ];
    expect(numbers.filter((number) => fixtures.includes(number))).toEqual([]);
  });

  test('magicRecipient: exact numbers, any number ending in 0000, nothing else', () => {
    expect(magicRecipient('+15550101003')?.behaviour).toBe('late_delivery');
    expect(magicRecipient('+33612340000')?.behaviour).toBe('unreachable');
    expect(magicRecipient('+15550101007')).toBeUndefined();
    expect(magicRecipient('+155501010031')).toBeUndefined();
    expect(magicRecipient('+33612345678')).toBeUndefined();
  });

  test('stays_sent: sent at 2 s and still sent a day later', () => {
    expect(at('+15550101001', 1_999)).toEqual(['queued', null, 0]);
    expect(at('+15550101001', 2_000)).toEqual(['sent', null, 2_000]);
    expect(at('+15550101001', 86_400_000)).toEqual(['sent', null, 2_000]);
  });

  test('read: sent 2 s, delivered 5 s, read 10 s', () => {
    expect(at('+15550101002', 4_999)).toEqual(['sent', null, 2_000]);
    expect(at('+15550101002', 5_000)).toEqual(['delivered', null, 5_000]);
    expect(at('+15550101002', 9_999)).toEqual(['delivered', null, 5_000]);
    expect(at('+15550101002', 10_000)).toEqual(['read', null, 10_000]);
  });

  test('late_delivery: sent at 2 s, still sent at 59.999 s, delivered at 60 s', () => {
    expect(at('+15550101003', 5_000)).toEqual(['sent', null, 2_000]);
    expect(at('+15550101003', 59_999)).toEqual(['sent', null, 2_000]);
    expect(at('+15550101003', 60_000)).toEqual(['delivered', null, 60_000]);
  });

  test('fails_after_sent: sent at 2 s, failed at 5 s with message_undeliverable', () => {
    expect(at('+15550101004', 4_999)).toEqual(['sent', null, 2_000]);
    expect(at('+15550101004', 5_000)).toEqual(['failed', 'message_undeliverable', 5_000]);
    expect(messageAt(queued('+15550101004'), ACCEPTED + 5_000).error).toEqual({
      code: 'message_undeliverable',
      message: 'The platform could not deliver this message to the recipient.',
    });
    expect(UNDELIVERABLE_ERROR).toEqual({
      code: 'message_undeliverable',
      message: 'The platform could not deliver this message to the recipient.',
    });
  });

  test('magicSteps: the documented schedule of each number that is sent', () => {
    expect(magicSteps('+15550101001')).toEqual([{ status: 'sent', age: 2_000 }]);
    expect(magicSteps('+15550101002')).toEqual([
      { status: 'sent', age: 2_000 },
      { status: 'delivered', age: 5_000 },
      { status: 'read', age: 10_000 },
    ]);
    expect(magicSteps('+15550101003')).toEqual([
      { status: 'sent', age: 2_000 },
      { status: 'delivered', age: 60_000 },
    ]);
    expect(magicSteps('+15550101004')).toEqual([
      { status: 'sent', age: 2_000 },
      { status: 'failed', age: 5_000, error: UNDELIVERABLE_ERROR },
    ]);
    expect(magicSteps('+33612345678')).toBeUndefined();
  });

  test('stepsOf: magic steps only for sandbox messages; other numbers keep the spec schedule', () => {
    expect(stepsOf(queued('+15550101002'))).toBe(magicSteps('+15550101002'));
    expect(stepsOf(queued('+33612345678'))).toBe(SANDBOX_STEPS);
    expect(stepsOf(queued('+15550101001', true)).map((step) => step.status)).toEqual([
      'sent',
      'delivered',
      'read',
    ]);
    // The refusing numbers never become messages; the 0000 rule fails at acceptance, not by steps.
    expect(magicSteps('+15550101005')).toBeUndefined();
    expect(magicSteps('+33612340000')).toBeUndefined();
  });

  test('magicRefusal: 409 connection_inactive and 429 rate_limited (sends, Retry-After 1); others none', () => {
    const inactive = magicRefusal('+15550101005', SANDBOX_ACTIVE_CONNECTION_ID);
    expect(inactive).toBeInstanceOf(DomainError);
    expect(inactive).toMatchObject({
      code: 'connection_inactive',
      status: 409,
      message:
        'Connection 7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51 is not active (sandbox magic recipient +15550101005).',
      details: { connection_id: SANDBOX_ACTIVE_CONNECTION_ID },
    });
    const limited = magicRefusal('+15550101006', SANDBOX_ACTIVE_CONNECTION_ID);
    expect(limited).toBeInstanceOf(DomainError);
    expect(limited).toMatchObject({
      code: 'rate_limited',
      status: 429,
      message:
        'Rate limit of the sends bucket reached (sandbox magic recipient +15550101006); retry after the window resets.',
      details: { bucket: 'sends', retry_after: 1 },
    });
    expect(MAGIC_RETRY_AFTER_SECONDS).toBe(1);
    for (const to of ['+15550101001', '+15550100000', '+33612345678']) {
      expect(magicRefusal(to, SANDBOX_ACTIVE_CONNECTION_ID)).toBeUndefined();
    }
  });
});
