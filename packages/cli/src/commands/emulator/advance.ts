import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { defineCommand } from '../command-module';
import { formatDuration, parseDuration } from './_duration';
import { openControl } from './_open-control';

/** `parley emulator clock advance DURATION`. */
export interface ClockAdvanceOptions extends ClientOptions {
  /** `500ms`, `5s`, `10m`, `1h`, `2d`. */
  duration: string;
}

/** The emulator's time after the move, and the move. */
export interface ClockAdvanceResult {
  now: string;
  advanced_ms: number;
}

/**
 * Moves the emulator's clock: every job that falls due in the window (status steps, webhook
 * attempts and retries) runs in time order before this returns. Works in both clock modes.
 */
export async function advanceEmulatorClock(
  options: ClockAdvanceOptions,
  context: CommandContext,
): Promise<ClockAdvanceResult> {
  if (!options.duration) throw usageError('missing duration: e.g. parley emulator clock advance 5s');
  const ms = parseDuration(options.duration);
  const control = await openControl(options, context);
  const { now } = await control.advanceClock(ms);
  return { now, advanced_ms: ms };
}

export default defineCommand({
  run: advanceEmulatorClock,
  render: (result, { style }) =>
    `Clock moved ${formatDuration(result.advanced_ms)}: now ${style.bold(result.now)}`,
});
