import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { formatDuration, parseDuration } from './_duration';
import { workspaceOption } from './_id-option';

/** `parley emulator clock advance DURATION [--workspace ID]`. */
export interface ClockAdvanceOptions extends ClientOptions {
  /** `500ms`, `90s`, `10m`, `1h30m`, `2d`: the emulator's duration grammar. */
  duration: string;
  /** A workspace with its own clock: moves that clock only (409 on a workspace sharing the global one). */
  workspace?: string;
}

/** The emulator's (or the workspace's) time after the move, and the move. */
export interface ClockAdvanceResult {
  now: string;
  advanced_ms: number;
  /** Present with `--workspace`. */
  workspace_id?: string;
}

/**
 * Moves the emulator's clock: every job that falls due in the window (status steps, webhook
 * attempts and retries) runs in time order before this returns. Works in both clock modes. With
 * `workspace`, moves that workspace's own clock and runs its jobs only.
 */
export async function advanceEmulatorClock(
  options: ClockAdvanceOptions,
  context: CommandContext,
): Promise<ClockAdvanceResult> {
  if (!options.duration) throw usageError('missing duration: e.g. parley emulator clock advance 1h30m');
  const ms = parseDuration(options.duration);
  const workspace = workspaceOption(options.workspace);
  const control = await openControl(options, context);
  if (workspace !== undefined) {
    const { now } = await control.advanceWorkspaceClock(workspace, ms);
    return { now, advanced_ms: ms, workspace_id: workspace };
  }
  const { now } = await control.advanceClock(ms);
  return { now, advanced_ms: ms };
}

export default defineCommand({
  run: advanceEmulatorClock,
  render: (result, { style }) =>
    `${result.workspace_id === undefined ? 'Clock' : `Workspace ${result.workspace_id}'s clock`} moved ${formatDuration(result.advanced_ms)}: now ${style.bold(result.now)}`,
});
