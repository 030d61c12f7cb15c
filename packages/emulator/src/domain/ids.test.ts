import { describe, expect, test } from 'vitest';
import { formatTimestamp, isUuid, newEventId, newId, newRequestId, randomBase62 } from './ids';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function thousand(make: () => string): string[] {
  return Array.from({ length: 1000 }, make);
}

describe('ids (DESIGN §2)', () => {
  test('newId: 1,000 distinct UUID v4', () => {
    const ids = thousand(newId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(1000);
  });

  // 1,000 ids cross the 256-id pool several times: a refill that did not happen would repeat ids.
  test.each([
    ['evt_', newEventId],
    ['req_', newRequestId],
  ])('%s + 32 lowercase hex, 1,000 distinct, never all zeros', (prefix, make) => {
    const ids = thousand(make);
    for (const id of ids) expect(id).toMatch(new RegExp(`^${prefix}[0-9a-f]{32}$`));
    expect(new Set(ids).size).toBe(1000);
    expect(ids).not.toContain(`${prefix}${'0'.repeat(32)}`);
  });

  test('event and request ids never share their random part', () => {
    const tails = new Set([...thousand(newEventId), ...thousand(newRequestId)].map((id) => id.slice(4)));
    expect(tails.size).toBe(2000);
  });

  test('randomBase62: exact length, only base62, distinct, every character reachable', () => {
    expect(randomBase62(0)).toBe('');
    expect(randomBase62(1)).toMatch(/^[A-Za-z0-9]$/);
    const values = thousand(() => randomBase62(32));
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(new Set(values).size).toBe(1000);
    expect(new Set(values.join('')).size).toBe(62);
  });

  test('isUuid: any version and case; nothing else', () => {
    expect(isUuid('7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51')).toBe(true);
    expect(isUuid('7F3C2A1E-5B4D-1C6E-9A8B-0D1E2F3A4B51')).toBe(true);
    expect(isUuid('7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b5')).toBe(false);
    expect(isUuid('7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b511')).toBe(false);
    expect(isUuid('x7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51')).toBe(false);
    expect(isUuid('7f3c2a1e5b4d4c6e9a8b0d1e2f3a4b51')).toBe(false);
    expect(isUuid('7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4g51')).toBe(false);
    expect(isUuid(42)).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });

  test('formatTimestamp: UTC, whole seconds, like 2026-10-14T09:30:00Z (spec 2.1)', () => {
    const nineThirty = Date.UTC(2026, 9, 14, 9, 30, 0);
    expect(formatTimestamp(nineThirty)).toBe('2026-10-14T09:30:00Z');
    expect(formatTimestamp(nineThirty + 999)).toBe('2026-10-14T09:30:00Z');
    expect(formatTimestamp(nineThirty + 1000)).toBe('2026-10-14T09:30:01Z');
    expect(formatTimestamp(nineThirty - 1)).toBe('2026-10-14T09:29:59Z');
    // Back to an earlier second after the cache held another one.
    expect(formatTimestamp(nineThirty)).toBe('2026-10-14T09:30:00Z');
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00Z');
  });
});
