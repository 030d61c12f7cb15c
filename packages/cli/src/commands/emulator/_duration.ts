import { formatDuration, readDuration } from '@parley/emulator/rules';
import { usageError } from '../../exit-error';

/**
 * Milliseconds of a duration to move a clock by, in the emulator's one grammar (whole numbers with
 * units, largest first: `500ms`, `90s`, `1h30m`, `2d`; more than 0, at most 366 days). Anything
 * else is a usage error (exit 2) that shows the accepted forms.
 */
export function parseDuration(text: string): number {
  const reading = readDuration(text);
  if (!reading.ok) throw usageError(reading.message);
  return reading.ms;
}

/** A duration as people read it: `5 s`, `1 min 30 s`, `2 d 3 h`, `500 ms`. */
export { formatDuration };
