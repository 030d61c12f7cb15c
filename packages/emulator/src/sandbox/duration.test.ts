import { expect, test } from 'vitest';
import { type Duration, durationMs } from './duration';

test('durations read as the CLI reads them: a whole number and ms, s, m, h or d', () => {
  const read = (['500ms', '5s', '10m', '1h', '2d', '0s'] as const).map(durationMs);
  expect(read).toEqual([500, 5_000, 600_000, 3_600_000, 172_800_000, 0]);
  expect(durationMs(1_234)).toBe(1_234);
});

test('anything else is refused, naming the accepted forms', () => {
  for (const bad of ['1.5s', '5', '5 s', '1h30m', '-1s', '5S', '', -1, 1.5, Number.NaN]) {
    expect(() => durationMs(bad as Duration)).toThrow(
      `cannot read ${JSON.stringify(bad)} as a duration: use whole milliseconds, or a whole number and a unit (ms, s, m, h, d), e.g. 500ms, 5s, 10m, 1h, 2d`,
    );
  }
});
