import { expect, test } from 'vitest';
import { type Duration, durationMs } from './duration';

test('durations read as the CLI reads them: whole numbers with ms, s, m, h or d, largest first', () => {
  const read = (['500ms', '5s', '10m', '1h', '2d', '0s', '1h30m'] as const).map(durationMs);
  expect(read).toEqual([500, 5_000, 600_000, 3_600_000, 172_800_000, 0, 5_400_000]);
  expect(durationMs(1_234)).toBe(1_234);
});

test('anything else is refused, naming the accepted forms', () => {
  for (const bad of ['1.5s', '5', '5 s', '30m1h', '-1s', '5S', '', -1, 1.5, Number.NaN]) {
    expect(() => durationMs(bad as Duration)).toThrow(
      `cannot read ${JSON.stringify(bad)} as a duration: use whole milliseconds, or whole numbers with units from the largest (d, h, m, s, ms), e.g. 500ms, 90s, 10m, 1h30m, 2d`,
    );
  }
});
