import { describe, expect, test } from 'vitest';
import { MESSAGING_WINDOW_MS, windowSlot } from './live-simulation';
import { sendFailure } from './send-outcome';

const CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const NOW = Date.UTC(2026, 10, 14, 9, 30, 0);
const NO_WINDOWS: Record<string, number> = {};

function send(to: string, type: 'text' | 'template' = 'template') {
  return { connection_id: CONNECTION, to, type };
}

describe('sendFailure', () => {
  test('a sandbox recipient ending in 0000 is unreachable, whatever the type', () => {
    for (const type of ['text', 'template'] as const) {
      expect(sendFailure(send('+33612340000', type), { live: false, windows: NO_WINDOWS, now: NOW })).toEqual(
        {
          code: 'recipient_unreachable',
          message: 'The sandbox recipient +33612340000 is unreachable.',
        },
      );
    }
  });

  test('a sandbox recipient ending otherwise is queued, also for text with no window', () => {
    for (const to of ['+33612340001', '+33612300010', '+33600001000']) {
      expect(sendFailure(send(to, 'text'), { live: false, windows: NO_WINDOWS, now: NOW })).toBeNull();
    }
  });

  test('live: 0000 has no meaning', () => {
    expect(sendFailure(send('+33612340000'), { live: true, windows: NO_WINDOWS, now: NOW })).toBeNull();
  });

  test('live text outside the 24 h window fails with outside_messaging_window', () => {
    expect(sendFailure(send('+33612345678', 'text'), { live: true, windows: NO_WINDOWS, now: NOW })).toEqual({
      code: 'outside_messaging_window',
      message: '+33612345678 has not written to this number in the last 24 hours; send a template instead.',
    });
  });

  test('live text inside the window is queued; the window closes exactly 24 h after it opened', () => {
    const windows = { [windowSlot(CONNECTION, '+33612345678')]: NOW };
    const text = send('+33612345678', 'text');
    expect(sendFailure(text, { live: true, windows, now: NOW })).toBeNull();
    expect(sendFailure(text, { live: true, windows, now: NOW + MESSAGING_WINDOW_MS - 1 })).toBeNull();
    expect(sendFailure(text, { live: true, windows, now: NOW + MESSAGING_WINDOW_MS })).toMatchObject({
      code: 'outside_messaging_window',
    });
  });

  test('the window is per connection and sender', () => {
    const windows = { [windowSlot(CONNECTION, '+33612345678')]: NOW };
    const other = {
      connection_id: 'aaaaaaaa-0000-4000-8000-000000000001',
      to: '+33612345678',
      type: 'text' as const,
    };
    expect(sendFailure(other, { live: true, windows, now: NOW })).toMatchObject({
      code: 'outside_messaging_window',
    });
    expect(sendFailure(send('+33699999999', 'text'), { live: true, windows, now: NOW })).toMatchObject({
      code: 'outside_messaging_window',
    });
  });

  test('live templates need no window', () => {
    expect(sendFailure(send('+33612345678'), { live: true, windows: NO_WINDOWS, now: NOW })).toBeNull();
  });
});
