import { DURATION_EXAMPLES, type DURATION_UNITS, parseDuration } from '../domain/duration';

/**
 * A span of emulator time: milliseconds, or whole numbers with units, largest first, as `parley
 * emulator clock advance` takes it: `500ms`, `90s`, `10m`, `1h30m`, `2d`.
 */
export type Duration = number | `${number}${(typeof DURATION_UNITS)[number][0]}${string}`;

/**
 * Milliseconds of a {@link Duration} (the one duration grammar, `domain/duration.ts`). Throws a
 * `RangeError` naming the accepted forms for anything else (a fraction, a negative number, units
 * out of order), as the CLI refuses them.
 *
 * @example
 * durationMs('1h30m'); // 5400000
 */
export function durationMs(duration: Duration): number {
  const ms = typeof duration === 'number' ? duration : parseDuration(duration);
  if (ms !== undefined && Number.isSafeInteger(ms) && ms >= 0) return ms;
  throw new RangeError(
    `cannot read ${JSON.stringify(duration)} as a duration: use whole milliseconds, or whole numbers with units from the largest (d, h, m, s, ms), e.g. ${DURATION_EXAMPLES}`,
  );
}
