import { describe, expect, test } from 'vitest';
import { checkAdvance } from './clock-range';
import { formatDuration, MAX_ADVANCE_MS, parseDuration, readDuration } from './duration';

describe('the duration grammar', () => {
  test.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['2d', 172_800_000],
    ['1h30m', 5_400_000],
    ['1m30s500ms', 90_500],
    ['1d2h3m4s5ms', 93_784_005],
    ['2d12h', 216_000_000],
    ['1m500ms', 60_500],
    ['0s', 0],
    ['  5s\n', 5_000],
    ['000000000001s', 1_000],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each([
    '',
    ' ',
    '5',
    '1.5h',
    '-1s',
    '+1s',
    '5x',
    '5 s',
    '1h 30m',
    '30m1h',
    '1s1s',
    '1ms1s',
    '1h1h',
    'h',
    '1H',
    '1min',
    '1e3ms',
    '0x10s',
    '١s',
    '1000000000000s',
    'tomorrow',
  ])('%j is no duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  test('a text longer than any duration is refused before the pattern runs', () => {
    expect(
      parseDuration(
        `${'9'.repeat(12)}d${'9'.repeat(12)}h${'9'.repeat(12)}m${'9'.repeat(12)}s${'9'.repeat(12)}ms`,
      ),
    ).toBe(999_999_999_999 * (86_400_000 + 3_600_000 + 60_000 + 1_000 + 1));
    expect(parseDuration(`${'1'.repeat(81)}`)).toBeUndefined();
    expect(parseDuration('1s'.padStart(81, ' '))).toBeUndefined();
    expect(parseDuration('1s'.padStart(80, ' '))).toBe(1_000);
  });
});

describe('a duration typed to move a clock', () => {
  test('1 ms and 366 days are the bounds, both taken; 0 and one past 366 days are out of range', () => {
    expect(readDuration('1ms')).toEqual({ ok: true, ms: 1 });
    expect(readDuration('366d')).toEqual({ ok: true, ms: 31_622_400_000 });
    expect(readDuration('365d23h59m59s999ms')).toEqual({ ok: true, ms: 31_622_399_999 });
    expect(readDuration('0ms')).toEqual({
      ok: false,
      reason: 'out_of_range',
      message: '"0ms" moves nothing: give more than 0, e.g. 1s',
    });
    expect(readDuration('0d0h')).toMatchObject({ ok: false, reason: 'out_of_range' });
    expect(readDuration('366d1ms')).toEqual({
      ok: false,
      reason: 'out_of_range',
      message: '"366d1ms" is more than a clock moves at once: at most 366d',
    });
    expect(readDuration('367d')).toMatchObject({ ok: false, reason: 'out_of_range' });
    expect(readDuration('999999999999d')).toMatchObject({ ok: false, reason: 'out_of_range' });
  });

  test('anything else is invalid_format, with the accepted forms', () => {
    expect(readDuration('1.5h')).toEqual({
      ok: false,
      reason: 'invalid_format',
      message:
        'cannot read "1.5h" as a duration: use whole numbers with units from the largest (d, h, m, s, ms), e.g. 500ms, 90s, 10m, 1h30m, 2d',
    });
    // Shown as JSON: a control character or a quote in the text is escaped, not printed.
    expect(readDuration('\u001b[2J"')).toMatchObject({ message: expect.stringContaining('"\\u001b[2J\\""') });
    expect(readDuration('9'.repeat(200))).toMatchObject({
      message: expect.stringContaining(`"${'9'.repeat(80)}…"`),
    });
  });

  test("the bound is the clock route's own: the longest duration read is the longest advance it takes", () => {
    expect(MAX_ADVANCE_MS).toBe(366 * 86_400_000);
    const longest = readDuration('366d');
    expect(longest.ok && checkAdvance(0, longest.ms)).toBe(MAX_ADVANCE_MS);
    expect(() => checkAdvance(0, MAX_ADVANCE_MS + 1)).toThrow(/366 days/);
  });
});

describe('a duration as people read it', () => {
  test.each([
    [0, '0 ms'],
    [500, '500 ms'],
    [999, '999 ms'],
    [1_000, '1 s'],
    [1_500, '1 s 500 ms'],
    [90_000, '1 min 30 s'],
    [5_400_000, '1 h 30 min'],
    [172_800_000, '2 d'],
    [MAX_ADVANCE_MS, '366 d'],
  ])('%d ms is %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
