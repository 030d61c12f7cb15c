// No imports: the console's browser bundle and the CLI read durations with this module alone.

/** Milliseconds of each duration unit, largest first: the order they are written in. */
export const DURATION_UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
] as const;

/** The longest single clock advance: 366 days (`POST /_emulator/clock/advance`, `ms`). */
export const MAX_ADVANCE_MS = 366 * 86_400_000;

/** The forms every reader of a typed duration names when it refuses one. */
export const DURATION_EXAMPLES = '500ms, 90s, 10m, 1h30m, 2d';

// Each unit at most once, largest first; 12 digits each is past any bound, and keeps the match linear.
const GRAMMAR = /^(?:(\d{1,12})d)?(?:(\d{1,12})h)?(?:(\d{1,12})m)?(?:(\d{1,12})s)?(?:(\d{1,12})ms)?$/;
// Longer than any duration of five 12-digit parts: refused before the pattern runs.
const MAX_TEXT_LENGTH = 80;

/**
 * Milliseconds of a duration written as whole numbers with units, largest first, each unit once:
 * `500ms`, `90s`, `10m`, `1h30m`, `2d`, `1m30s500ms`. Spaces around it are ignored; anything else
 * (`5`, `1.5h`, `30m1h`, `1h 30m`, `-1s`) is undefined. No bounds: see {@link readDuration}.
 *
 * @example
 * parseDuration('1h30m'); // 5400000
 */
export function parseDuration(text: string): number | undefined {
  if (text.length > MAX_TEXT_LENGTH) return undefined;
  const trimmed = text.trim();
  const match = GRAMMAR.exec(trimmed);
  if (!match || trimmed === '') return undefined;
  return DURATION_UNITS.reduce((total, [, size], index) => total + Number(match[index + 1] ?? 0) * size, 0);
}

/** A typed duration the clock can be advanced by, or why not (with a message for the person who typed it). */
export type DurationReading =
  | { ok: true; ms: number }
  | { ok: false; reason: 'invalid_format' | 'out_of_range'; message: string };

/**
 * A duration someone typed to move a clock (`parley emulator clock advance`, the console's
 * field): {@link parseDuration}'s grammar, more than 0 and at most {@link MAX_ADVANCE_MS}.
 */
export function readDuration(text: string): DurationReading {
  const ms = parseDuration(text);
  const shown = JSON.stringify(text.length > MAX_TEXT_LENGTH ? `${text.slice(0, MAX_TEXT_LENGTH)}…` : text);
  if (ms === undefined) {
    return {
      ok: false,
      reason: 'invalid_format',
      message: `cannot read ${shown} as a duration: use whole numbers with units from the largest (d, h, m, s, ms), e.g. ${DURATION_EXAMPLES}`,
    };
  }
  if (ms === 0) {
    return {
      ok: false,
      reason: 'out_of_range',
      message: `${shown} moves nothing: give more than 0, e.g. 1s`,
    };
  }
  if (ms > MAX_ADVANCE_MS) {
    return {
      ok: false,
      reason: 'out_of_range',
      message: `${shown} is more than a clock moves at once: at most 366d`,
    };
  }
  return { ok: true, ms };
}

/** A duration as people read it: `500 ms`, `5 s`, `1 min 30 s`, `2 d 3 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of DURATION_UNITS) {
    if (rest < size) continue;
    parts.push(`${Math.floor(rest / size)} ${unit === 'm' ? 'min' : unit}`);
    rest %= size;
  }
  return parts.join(' ');
}
