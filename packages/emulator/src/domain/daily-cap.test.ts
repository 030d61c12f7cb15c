import { describe, expect, test } from 'vitest';
import {
  assertUnderDailyCap,
  DAILY_SEND_LIMIT,
  type DailySends,
  sendsAfterThisOne,
  sendsToday,
  utcDay,
} from './daily-cap';
import { DomainError } from './domain-error';

const MIDNIGHT = Date.UTC(2026, 9, 15); // 2026-10-15T00:00:00.000Z
const LAST_MS_OF_DAY = MIDNIGHT - 1; // 2026-10-14T23:59:59.999Z
const NOON = Date.UTC(2026, 9, 14, 12);

function capError(state: DailySends, workspaceId: string, now: number): DomainError | undefined {
  try {
    assertUnderDailyCap(state, workspaceId, now);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
}

describe('daily send cap (spec 8.3)', () => {
  test('1,000 sends per UTC day', () => {
    expect(DAILY_SEND_LIMIT).toBe(1000);
  });

  test('utcDay: the UTC date, whatever the local time zone', () => {
    expect(utcDay(LAST_MS_OF_DAY)).toBe('2026-10-14');
    expect(utcDay(MIDNIGHT)).toBe('2026-10-15');
  });

  test('sendsToday: the count of the day of `now`, 0 for another day or workspace', () => {
    const state: DailySends = { w1: { day: '2026-10-14', count: 7 } };
    expect(sendsToday(state, 'w1', LAST_MS_OF_DAY)).toBe(7);
    expect(sendsToday(state, 'w1', MIDNIGHT)).toBe(0);
    expect(sendsToday(state, 'w2', NOON)).toBe(0);
  });

  test('999 sent: one more allowed; 1,000 sent: refused', () => {
    expect(capError({ w1: { day: '2026-10-14', count: 999 } }, 'w1', NOON)).toBeUndefined();
    expect(capError({ w1: { day: '2026-10-14', count: 1000 } }, 'w1', NOON)).toMatchObject({
      code: 'daily_send_limit_reached',
      status: 429,
      message:
        'This live workspace has sent 1000 messages today (UTC); sending resumes at the next UTC midnight.',
      details: { limit: 1000, retry_after: 12 * 3600 },
    });
  });

  test('the cap is per workspace', () => {
    expect(capError({ w1: { day: '2026-10-14', count: 1000 } }, 'w2', NOON)).toBeUndefined();
  });

  test('resets at UTC midnight: refused at 23:59:59.999, allowed at 00:00:00.000', () => {
    const state: DailySends = { w1: { day: '2026-10-14', count: 1000 } };
    expect(capError(state, 'w1', LAST_MS_OF_DAY)?.details).toEqual({ limit: 1000, retry_after: 1 });
    expect(capError(state, 'w1', MIDNIGHT)).toBeUndefined();
  });

  test('Retry-After: whole seconds up to the next UTC midnight, rounded up', () => {
    const state: DailySends = { w1: { day: '2026-10-14', count: 1000 } };
    const retryAfter = (now: number) => capError(state, 'w1', now)?.details?.retry_after;
    expect(retryAfter(Date.UTC(2026, 9, 14))).toBe(86_400);
    expect(retryAfter(Date.UTC(2026, 9, 14) + 1)).toBe(86_400);
    expect(retryAfter(Date.UTC(2026, 9, 14) + 1000)).toBe(86_399);
    expect(retryAfter(MIDNIGHT - 1000)).toBe(1);
    expect(retryAfter(MIDNIGHT - 1001)).toBe(2);
  });

  test('sendsAfterThisOne: +1 on the same day, 1 on a new day or workspace, state untouched', () => {
    const state: DailySends = { w1: { day: '2026-10-14', count: 41 } };
    expect(sendsAfterThisOne(state, 'w1', LAST_MS_OF_DAY)).toEqual({ day: '2026-10-14', count: 42 });
    expect(sendsAfterThisOne(state, 'w1', MIDNIGHT)).toEqual({ day: '2026-10-15', count: 1 });
    expect(sendsAfterThisOne(state, 'w2', NOON)).toEqual({ day: '2026-10-14', count: 1 });
    expect(state).toEqual({ w1: { day: '2026-10-14', count: 41 } });
  });
});
