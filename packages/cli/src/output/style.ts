import { Chalk, type ChalkInstance, supportsColor } from 'chalk';
import type { OutputStream } from '../context';

/**
 * The chalk instance of one run. Colour only when asked for and possible: `--no-color` and a
 * non-empty NO_COLOR (no-color.org) turn it off, FORCE_COLOR turns it on, otherwise only a TTY.
 */
export function createStyle(options: {
  color: boolean;
  stream: OutputStream;
  env: Record<string, string | undefined>;
}): ChalkInstance {
  return new Chalk({ level: colorLevel(options) });
}

function colorLevel({
  color,
  stream,
  env,
}: {
  color: boolean;
  stream: OutputStream;
  env: Record<string, string | undefined>;
}): 0 | 1 | 2 | 3 {
  if (!color || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return 0;
  const detected = supportsColor ? supportsColor.level : 0;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') {
    return Math.max(detected, 1) as 1 | 2 | 3;
  }
  return stream.isTTY ? (Math.max(detected, 1) as 1 | 2 | 3) : 0;
}
