const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A span of emulator time: milliseconds, or a whole number and one unit as `parley emulator
 * clock advance` takes it: `500ms`, `5s`, `10m`, `1h`, `2d`.
 */
export type Duration = number | `${number}${keyof typeof UNIT_MS}`;

/**
 * Milliseconds of a {@link Duration}. Throws a `RangeError` naming the accepted forms for anything
 * else (a fraction, a negative number, two units), as the CLI refuses them.
 *
 * @example
 * durationMs('5s'); // 5000
 */
export function durationMs(duration: Duration): number {
  if (typeof duration === 'number') {
    if (Number.isSafeInteger(duration) && duration >= 0) return duration;
  } else {
    const match = /^(\d{1,12})(ms|s|m|h|d)$/.exec(duration);
    if (match) return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  }
  throw new RangeError(
    `cannot read ${JSON.stringify(duration)} as a duration: use whole milliseconds, or a whole number and a unit (ms, s, m, h, d), e.g. 500ms, 5s, 10m, 1h, 2d`,
  );
}
