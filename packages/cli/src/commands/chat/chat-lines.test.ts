import type { ConversationItem } from '@parley/emulator/control';
import type { Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { plainStyle } from '../../output/plain-style';
import { changedItems, chatLine } from './_chat-lines';

const base: Message = {
  id: 'b7c1a0de-0000-4000-8000-000000000001',
  object: 'message',
  direction: 'outbound',
  connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
  to: '+33611112222',
  from: null,
  type: 'text',
  text: 'hello',
  template: null,
  status: 'queued',
  error: null,
  client_reference: null,
  created_at: '2026-10-14T09:30:15Z',
  updated_at: '2026-10-14T09:30:15Z',
  livemode: false,
};
const item = (message: Partial<Message>, at = '2026-10-14T09:30:15Z'): ConversationItem => ({
  message: { ...base, ...message },
  history: [{ status: message.status ?? 'queued', at }],
  template_body: null,
});

describe('parley chat lines (issue 26)', () => {
  test("an inbound message, the app's reply as ticks, a failure with its error, at the last status's time", () => {
    const style = plainStyle();
    expect(
      chatLine(
        item({ direction: 'inbound', from: '+33611112222', to: null, text: 'hi', status: 'received' }),
        style,
      ),
    ).toBe('09:30:15  +33611112222: hi');
    expect(chatLine(item({ status: 'queued' }), style)).toBe('09:30:15  app: hello  ◷ queued');
    expect(chatLine(item({ status: 'sent' }, '2026-10-14T09:30:17Z'), style)).toBe(
      '09:30:17  app: hello  ✓ sent',
    );
    expect(chatLine(item({ status: 'read' }), style)).toBe('09:30:15  app: hello  ✓✓ read');
    expect(
      chatLine(
        item({
          status: 'failed',
          error: { code: 'outside_messaging_window', message: 'The 24 h window is closed.' },
        }),
        style,
      ),
    ).toBe('09:30:15  app: hello  ✗ failed outside_messaging_window: The 24 h window is closed.');
  });

  test('text from outside reaches the terminal with its control characters escaped', () => {
    const hostile = item({
      direction: 'inbound',
      from: '+33611112222',
      to: null,
      text: '\u001b]0;pwned\u0007hi\r',
    });
    expect(chatLine(hostile, plainStyle())).toBe('09:30:15  +33611112222: \\u001b]0;pwned\\u0007hi\\u000d');
  });

  test('only new messages and changed statuses are printed again', () => {
    const seen = new Map<string, string>();
    expect(changedItems([item({ status: 'queued' })], seen)).toHaveLength(1);
    expect(changedItems([item({ status: 'queued' })], seen)).toEqual([]);
    expect(changedItems([item({ status: 'sent' })], seen).map((changed) => changed.message.status)).toEqual([
      'sent',
    ]);
  });
});
