import { MAX_ADVANCE_MS } from './duration';
import { invalid } from './input-checks';

// The longest single advance lives with the duration grammar, which the console and the CLI load alone.
export { MAX_ADVANCE_MS } from './duration';

/** The earliest time an emulator clock may be set to: 1970-01-01T00:00:00.000Z. */
export const CLOCK_EARLIEST_MS = 0;
/**
 * The latest time an emulator clock may be set or advanced to: 9999-12-31T23:59:59.999Z, the last
 * instant with a four-digit year, so every time it shows is a plain ISO 8601 timestamp.
 */
export const CLOCK_LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const RANGE_TEXT = '1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';

// A date, a time with seconds (a fraction of up to 9 digits), and Z or an offset: nothing else.
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** Whether `ms` is a time an emulator clock may hold (inclusive range). */
export function isClockTime(ms: number): boolean {
  // NaN fails both comparisons.
  return ms >= CLOCK_EARLIEST_MS && ms <= CLOCK_LATEST_MS;
}

/**
 * Milliseconds of an ISO 8601 instant such as `2026-10-14T12:00:00Z` or `2026-10-14T14:00:00.5+02:00`,
 * or undefined for anything else: another shape (`"0"`, `"2026-10-14"`, an expanded year
 * `+275760-…`), a day or time that does not exist (February 30, 24:00, a leap second). The result is
 * not range-checked: see {@link isClockTime}.
 */
export function parseInstant(text: string): number | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const [offsetHours, offsetMinutes] = [Number(match[10] ?? 0), Number(match[11] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  // Date.UTC reads years 0 – 99 as 1900 – 1999, so the year is set on its own.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, fraction);
  const offset = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return local.getTime() - offset;
}

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * The start time of a clock, `field` of a control call: an ISO 8601 instant (see {@link parseInstant})
 * within the clock range. Anything else is 400 `validation_error` naming the field, with reason
 * `invalid_format` (not such an instant) or `out_of_range`.
 */
export function checkClockStart(field: string, value: unknown): number {
  const ms = typeof value === 'string' ? parseInstant(value) : undefined;
  if (ms === undefined) {
    invalid(
      field,
      'invalid_format',
      `${field} must be an ISO 8601 timestamp with seconds and a zone, such as 2026-10-14T12:00:00Z, from ${RANGE_TEXT}.`,
    );
  }
  if (!isClockTime(ms)) {
    invalid(field, 'out_of_range', `${field} must be a time from ${RANGE_TEXT}.`);
  }
  return ms;
}

/**
 * The `ms` of a clock advance from `now`: a whole number of milliseconds from 0 to 366 days (400
 * `invalid_value` otherwise) that keeps the clock at or before {@link CLOCK_LATEST_MS} (400
 * `out_of_range` otherwise: the clock is never moved part of the way).
 */
export function checkAdvance(now: number, ms: unknown): number {
  // Number.isInteger is false for anything but a number.
  if (!Number.isInteger(ms) || (ms as number) < 0 || (ms as number) > MAX_ADVANCE_MS) {
    invalid(
      'ms',
      'invalid_value',
      'ms must be a whole number of milliseconds from 0 to 31622400000 (366 days).',
    );
  }
  if (now + (ms as number) > CLOCK_LATEST_MS) {
    invalid(
      'ms',
      'out_of_range',
      `An advance of ${ms} ms would take the clock past 9999-12-31T23:59:59.999Z, the latest time it can show; it stays at ${describeTime(now)}.`,
    );
  }
  return ms as number;
}

/** A clock time for a message: its ISO text, or the number when no Date can show it. */
export function describeTime(ms: number): string {
  // NaN fails the comparison.
  return Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${ms} ms`;
}
