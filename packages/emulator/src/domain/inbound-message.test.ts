import { describe, expect, test } from 'vitest';
import { inboundMessage } from './inbound-message';

describe('inboundMessage (spec 2.1, 6.1)', () => {
  test('every field: received text from the customer, no recipient, no template', () => {
    const message = inboundMessage({
      id: '22222222-2222-4222-8222-222222222222',
      connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
      from: '+33612345678',
      text: 'Bonjour',
      timestamp: '2026-10-14T09:30:00Z',
      livemode: true,
    });
    expect(message).toStrictEqual({
      id: '22222222-2222-4222-8222-222222222222',
      object: 'message',
      direction: 'inbound',
      connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
      to: null,
      from: '+33612345678',
      type: 'text',
      text: 'Bonjour',
      template: null,
      status: 'received',
      error: null,
      client_reference: null,
      created_at: '2026-10-14T09:30:00Z',
      updated_at: '2026-10-14T09:30:00Z',
      livemode: true,
    });
  });

  test('livemode is the caller’s', () => {
    const base = { id: 'i', connection_id: 'c', from: '+33612345678', text: 't', timestamp: 'ts' };
    expect(inboundMessage({ ...base, livemode: false }).livemode).toBe(false);
  });
});
