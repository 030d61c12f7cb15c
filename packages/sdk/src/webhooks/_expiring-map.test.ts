import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringMap } from './_expiring-map';

afterEach(() => {
  vi.useRealTimers();
});

describe('ExpiringMap', () => {
  it('forgets an entry once its time to live has passed', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    const map = new ExpiringMap<string>();
    map.set('a', 'sent', 60);
    vi.setSystemTime(1_000_000 + 59_999);
    expect(map.get('a')).toBe('sent');
    vi.setSystemTime(1_000_000 + 60_000);
    expect(map.get('a')).toBeUndefined();
  });

  it('drops the least recently used entry beyond its capacity', () => {
    const map = new ExpiringMap<number>(2);
    map.set('a', 1, 60);
    map.set('b', 2, 60);
    expect(map.get('a')).toBe(1); // now b is the least recently used
    map.set('c', 3, 60);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, undefined, 3]);
  });

  it('holds 10,000 entries by default', () => {
    const map = new ExpiringMap<number>();
    for (let index = 0; index <= 10_000; index++) map.set(`k${index}`, index, 60);
    expect(map.get('k0')).toBeUndefined();
    expect(map.get('k1')).toBe(1);
    expect(map.get('k10000')).toBe(10_000);
  });

  it('replaces a value and its time to live', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const map = new ExpiringMap<string>();
    map.set('a', 'sent', 1);
    map.set('a', 'read', 10);
    vi.setSystemTime(5_000);
    expect(map.get('a')).toBe('read');
  });
});
