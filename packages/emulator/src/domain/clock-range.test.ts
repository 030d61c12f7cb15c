import { describe, expect, test } from 'vitest';
import { refusalOf } from '../_testing/thrown-domain-error';
import {
  CLOCK_EARLIEST_MS,
  CLOCK_LATEST_MS,
  checkAdvance,
  checkClockStart,
  describeTime,
  isClockTime,
  MAX_ADVANCE_MS,
  parseInstant,
} from './clock-range';

const FORMAT_MESSAGE =
  'now must be an ISO 8601 timestamp with seconds and a zone, such as 2026-10-14T12:00:00Z, from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.';
const RANGE_MESSAGE = 'now must be a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.';
const MS_MESSAGE = 'ms must be a whole number of milliseconds from 0 to 31622400000 (366 days).';

const badFormat = {
  status: 400,
  code: 'validation_error',
  message: FORMAT_MESSAGE,
  details: { field: 'now', reason: 'invalid_format' },
};
const outOfRange = {
  status: 400,
  code: 'validation_error',
  message: RANGE_MESSAGE,
  details: { field: 'now', reason: 'out_of_range' },
};
const badMs = {
  status: 400,
  code: 'validation_error',
  message: MS_MESSAGE,
  details: { field: 'ms', reason: 'invalid_value' },
};

describe('the clock range', () => {
  test('is 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, both included', () => {
    expect(new Date(CLOCK_EARLIEST_MS).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(new Date(CLOCK_LATEST_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(CLOCK_LATEST_MS).toBe(253_402_300_799_999);
    expect(isClockTime(CLOCK_EARLIEST_MS)).toBe(true);
    expect(isClockTime(CLOCK_EARLIEST_MS - 1)).toBe(false);
    expect(isClockTime(CLOCK_LATEST_MS)).toBe(true);
    expect(isClockTime(CLOCK_LATEST_MS + 1)).toBe(false);
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 8.64e15]) {
      expect(isClockTime(ms)).toBe(false);
    }
  });

  test('describeTime: the ISO text, or the number when no Date can show it', () => {
    expect(describeTime(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(describeTime(8.64e15)).toBe('+275760-09-13T00:00:00.000Z');
    expect(describeTime(8.64e15 + 1)).toBe('8640000000000001 ms');
    expect(describeTime(-8.64e15)).toBe('-271821-04-20T00:00:00.000Z');
    expect(describeTime(-8.64e15 - 1)).toBe('-8640000000000001 ms');
    expect(describeTime(Number.NaN)).toBe('NaN ms');
    expect(describeTime(Number.POSITIVE_INFINITY)).toBe('Infinity ms');
  });
});

describe('parseInstant: ISO 8601 instants only', () => {
  test.each([
    ['2026-10-14T12:00:45Z', Date.UTC(2026, 9, 14, 12, 0, 45)],
    ['2026-10-14T12:00:45.5Z', Date.UTC(2026, 9, 14, 12, 0, 45, 500)],
    ['2026-10-14T12:00:45.123456789Z', Date.UTC(2026, 9, 14, 12, 0, 45, 123)],
    ['2026-10-14T14:00:45+02:00', Date.UTC(2026, 9, 14, 12, 0, 45)],
    ['2026-10-14T07:30:45-04:30', Date.UTC(2026, 9, 14, 12, 0, 45)],
    ['2026-10-14T23:00:45+23:00', Date.UTC(2026, 9, 14, 0, 0, 45)],
    ['2026-10-14T12:59:45+00:59', Date.UTC(2026, 9, 14, 12, 0, 45)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2000-02-29T23:59:59Z', Date.UTC(2000, 1, 29, 23, 59, 59)],
  ])('%s', (text, ms) => {
    expect(parseInstant(text)).toBe(ms);
  });

  test('year 0099 is year 99, not 1999 as Date.UTC would read it', () => {
    expect(new Date(parseInstant('0099-12-31T23:59:59Z')!).toISOString()).toBe('0099-12-31T23:59:59.000Z');
  });

  test.each([
    '0',
    '2000',
    '',
    '2026-10-14',
    '2026-10-14T12:00Z',
    '2026-10-14T12:00:00',
    '2026-10-14 12:00:00Z',
    '2026-10-14t12:00:00z',
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-01T00:00:00Z',
    '2026-10-00T00:00:00Z',
    '2026-10-14T24:00:00Z',
    '2026-10-14T12:60:00Z',
    '2026-10-14T23:59:60Z',
    '2026-10-14T12:00:00.Z',
    '2026-10-14T12:00:00.1234567890Z',
    '2026-10-14T12:00:00+24:00',
    '2026-10-14T12:00:00+02:60',
    '2026-10-14T12:00:00+0200',
    ' 2026-10-14T12:00:00Z',
    '2026-10-14T12:00:00Z\n',
    'Wed, 14 Oct 2026 12:00:00 GMT',
  ])('%j is not one', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('checkClockStart: where a clock may start', () => {
  test('at both ends of the range, with or without an offset', () => {
    expect(checkClockStart('now', '1970-01-01T00:00:00Z')).toBe(0);
    expect(checkClockStart('now', '1970-01-01T01:00:00+01:00')).toBe(0);
    expect(checkClockStart('now', '9999-12-31T23:59:59.999Z')).toBe(CLOCK_LATEST_MS);
    expect(checkClockStart('now', '9999-12-31T22:59:59.999-01:00')).toBe(CLOCK_LATEST_MS);
  });

  test('one millisecond past either end is 400 out_of_range', () => {
    expect(refusalOf(() => checkClockStart('now', '1969-12-31T23:59:59.999Z'))).toEqual(outOfRange);
    expect(refusalOf(() => checkClockStart('now', '1970-01-01T00:59:59.999+01:00'))).toEqual(outOfRange);
    expect(refusalOf(() => checkClockStart('now', '9999-12-31T23:59:59.999-00:01'))).toEqual(outOfRange);
    expect(refusalOf(() => checkClockStart('now', '0001-01-01T00:00:00Z'))).toEqual(outOfRange);
  });

  test('anything but such a string is 400 invalid_format naming the field', () => {
    for (const value of [
      '0',
      '+275760-09-13T00:00:00.000Z',
      'yesterday',
      0,
      1_700_000_000_000,
      null,
      true,
      [],
      {},
      // An array whose text is an instant: only a string is read.
      ['2026-10-14T12:00:00Z'],
    ]) {
      expect(refusalOf(() => checkClockStart('now', value))).toEqual(badFormat);
    }
    expect(refusalOf(() => checkClockStart('start', 'x')).details).toEqual({
      field: 'start',
      reason: 'invalid_format',
    });
  });
});

describe('checkAdvance: how far a clock may move at once', () => {
  test('whole milliseconds from 0 to 366 days', () => {
    expect(checkAdvance(0, 0)).toBe(0);
    expect(checkAdvance(0, MAX_ADVANCE_MS)).toBe(31_622_400_000);
    for (const ms of [
      MAX_ADVANCE_MS + 1,
      -1,
      0.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '5000',
      '1d',
      null,
      true,
      undefined,
      [1],
      {},
    ]) {
      expect(refusalOf(() => checkAdvance(0, ms))).toEqual(badMs);
    }
  });

  test('up to the latest time and not one millisecond past it: out_of_range, from where the clock is', () => {
    expect(checkAdvance(CLOCK_LATEST_MS - 1_000, 1_000)).toBe(1_000);
    expect(checkAdvance(CLOCK_LATEST_MS, 0)).toBe(0);
    expect(refusalOf(() => checkAdvance(CLOCK_LATEST_MS - 1_000, 1_001))).toEqual({
      status: 400,
      code: 'validation_error',
      message:
        'An advance of 1001 ms would take the clock past 9999-12-31T23:59:59.999Z, the latest time it can show; it stays at 9999-12-31T23:59:58.999Z.',
      details: { field: 'ms', reason: 'out_of_range' },
    });
    expect(refusalOf(() => checkAdvance(CLOCK_LATEST_MS, 1)).details).toEqual({
      field: 'ms',
      reason: 'out_of_range',
    });
  });
});
