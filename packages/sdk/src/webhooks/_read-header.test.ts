import { describe, expect, it } from 'vitest';
import { readHeader } from './_read-header';

describe('readHeader', () => {
  it('reads a plain record in any case, the exact lower-case key first', () => {
    expect(readHeader({ 'Parley-Timestamp': '1' }, 'parley-timestamp')).toBe('1');
    expect(readHeader({ 'parley-timestamp': '1', 'PARLEY-TIMESTAMP': '2' }, 'parley-timestamp')).toBe('1');
  });

  it('joins repeated values with ", " as Headers does, and reads Headers objects', () => {
    expect(readHeader({ 'parley-signature': ['v1=a', 'v1=b'] }, 'parley-signature')).toBe('v1=a, v1=b');
    expect(readHeader(new Headers({ 'Parley-Event-Id': 'evt_1' }), 'parley-event-id')).toBe('evt_1');
  });

  it('is undefined when absent or empty, null when not text', () => {
    expect(readHeader({}, 'parley-event-id')).toBeUndefined();
    expect(readHeader({ 'parley-event-id': '' }, 'parley-event-id')).toBeUndefined();
    expect(readHeader({ 'parley-event-id': 42 } as never, 'parley-event-id')).toBeNull();
    expect(readHeader({ 'parley-event-id': ['a', 1] } as never, 'parley-event-id')).toBeNull();
  });
});
