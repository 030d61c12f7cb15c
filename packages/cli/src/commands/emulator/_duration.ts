import { usageError } from '../../exit-error';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

// The emulator moves its clock by at most one year in one call.
const MAX_MS = 366 * UNIT_MS.d;

/**
 * Milliseconds of a duration written as a whole number and one unit: `500ms`, `5s`, `10m`,
 * `1h`, `2d`. Anything else is a usage error (exit 2) that shows the accepted forms.
 */
export function parseDuration(text: string): number {
  const match = /^(\d{1,12})(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) {
    throw usageError(
      `cannot read "${text}" as a duration: use a whole number and a unit (ms, s, m, h, d), e.g. 500ms, 5s, 10m, 1h, 2d`,
    );
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms > MAX_MS) throw usageError(`"${text}" is more than the emulator moves at once: at most 366d`);
  return ms;
}

/** A duration as people read it: `5 s`, `1 h`, `2 d 3 h`, `500 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', UNIT_MS.d],
    ['h', UNIT_MS.h],
    ['min', UNIT_MS.m],
    ['s', UNIT_MS.s],
    ['ms', UNIT_MS.ms],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}
