import type { Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { inboundMessage } from './inbound-message';
import { LIVE_STEPS, messageAt, SANDBOX_STEPS, stepsOf } from './message-lifecycle';
import type { MessageRecord } from './records';

const ACCEPTED = Date.UTC(2026, 10, 14, 9, 30, 0);

function outbound(livemode: boolean, status: Message['status'] = 'queued'): MessageRecord {
  const message: Message = {
    id: '11111111-1111-4111-8111-111111111111',
    object: 'message',
    direction: 'outbound',
    connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
    to: '+15550123456',
    from: null,
    type: 'template',
    text: null,
    template: { name: 'hello_world', language: 'en' },
    status,
    error: status === 'failed' ? { code: 'recipient_unreachable', message: 'unreachable' } : null,
    client_reference: null,
    created_at: '2026-11-14T09:30:00Z',
    updated_at: '2026-11-14T09:30:00Z',
    livemode,
  };
  return { message, application_id: 'a', workspace_id: 'w', accepted_at: ACCEPTED, announced: 0 };
}

function inbound(livemode: boolean): MessageRecord {
  const message = inboundMessage({
    id: '22222222-2222-4222-8222-222222222222',
    connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
    from: '+33612345678',
    text: 'Bonjour',
    timestamp: '2026-11-14T09:30:00Z',
    livemode,
  });
  return { message, application_id: 'a', workspace_id: 'w', accepted_at: ACCEPTED, announced: 0 };
}

const statusAt = (record: MessageRecord, age: number) => messageAt(record, ACCEPTED + age).status;

describe('message lifecycle', () => {
  test('schedules: sandbox sent at 2 s, delivered at 5 s; live adds read at 10 s', () => {
    expect(SANDBOX_STEPS).toEqual([
      { status: 'sent', age: 2000 },
      { status: 'delivered', age: 5000 },
    ]);
    expect(LIVE_STEPS).toEqual([
      { status: 'sent', age: 2000 },
      { status: 'delivered', age: 5000 },
      { status: 'read', age: 10_000 },
    ]);
  });

  // The shared-ages rule (DESIGN §4): a live message's steps that the sandbox also has happen at
  // the sandbox's ages, so sandbox and live messages accepted together wait in the same timer
  // lines (core/message-timers.ts) and reach sent and delivered at the same instant.
  test('the steps live shares with the sandbox keep the sandbox ages', () => {
    expect(LIVE_STEPS.slice(0, SANDBOX_STEPS.length)).toEqual(SANDBOX_STEPS);
  });

  test('stepsOf: by environment; none for failed or inbound messages', () => {
    expect(stepsOf(outbound(false))).toBe(SANDBOX_STEPS);
    expect(stepsOf(outbound(true))).toBe(LIVE_STEPS);
    expect(stepsOf(outbound(false, 'failed'))).toEqual([]);
    expect(stepsOf(outbound(true, 'failed'))).toEqual([]);
    expect(stepsOf(inbound(false))).toEqual([]);
    expect(stepsOf(inbound(true))).toEqual([]);
  });

  test('sandbox: queued < 2 s ≤ sent < 5 s ≤ delivered (spec 3.2), never read', () => {
    const record = outbound(false);
    expect(statusAt(record, 0)).toBe('queued');
    expect(statusAt(record, 1999)).toBe('queued');
    expect(statusAt(record, 2000)).toBe('sent');
    expect(statusAt(record, 4999)).toBe('sent');
    expect(statusAt(record, 5000)).toBe('delivered');
    expect(statusAt(record, 86_400_000)).toBe('delivered');
  });

  test('live: … delivered < 10 s ≤ read', () => {
    const record = outbound(true);
    expect(statusAt(record, 1999)).toBe('queued');
    expect(statusAt(record, 2000)).toBe('sent');
    expect(statusAt(record, 5000)).toBe('delivered');
    expect(statusAt(record, 9999)).toBe('delivered');
    expect(statusAt(record, 10_000)).toBe('read');
  });

  test('updated_at is the moment of the step reached, not now; the record is untouched', () => {
    const record = outbound(false);
    expect(messageAt(record, ACCEPTED + 4999).updated_at).toBe('2026-11-14T09:30:02Z');
    expect(messageAt(record, ACCEPTED + 60_000).updated_at).toBe('2026-11-14T09:30:05Z');
    expect(messageAt(record, ACCEPTED + 60_000)).toMatchObject({ created_at: '2026-11-14T09:30:00Z' });
    expect(messageAt(record, ACCEPTED + 1999)).toBe(record.message);
    expect(record.message.status).toBe('queued');
  });

  test('a failed message stays failed; an inbound one stays received, at any age', () => {
    for (const record of [
      outbound(false, 'failed'),
      outbound(true, 'failed'),
      inbound(false),
      inbound(true),
    ]) {
      for (const age of [0, 2000, 5000, 10_000, 86_400_000]) {
        expect(messageAt(record, ACCEPTED + age)).toBe(record.message);
      }
    }
    expect(statusAt(inbound(true), 10_000)).toBe('received');
  });
});
