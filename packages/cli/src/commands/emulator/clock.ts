import type { ClockView, WorkspaceClockView } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { workspaceOption } from './_id-option';

/** `parley emulator clock [--workspace ID]`. */
export interface EmulatorClockOptions extends ClientOptions {
  /** A workspace id: its clock (its own, or the global one it shares). */
  workspace?: string;
}

/**
 * `parley emulator clock`: the emulator's time and whether it runs or stands still; with
 * `--workspace`, that workspace's time and whether the clock is its own.
 */
export async function emulatorClock(
  options: EmulatorClockOptions,
  context: CommandContext,
): Promise<ClockView | WorkspaceClockView> {
  const workspace = workspaceOption(options.workspace);
  const control = await openControl(options, context);
  return workspace === undefined ? control.clock() : control.workspaceClock(workspace);
}

export default defineCommand({
  run: emulatorClock,
  render: (clock, { style }) => {
    const mode =
      clock.mode === 'frozen'
        ? 'frozen: moves only with `parley emulator clock advance`'
        : 'real: follows the wall clock';
    if (!('workspace_id' in clock)) return `${style.bold(clock.now)} (${mode})`;
    if (!clock.own_clock) return `${style.bold(clock.now)} (shares the global clock, ${mode})`;
    const own =
      clock.mode === 'frozen'
        ? 'frozen: moves only with `parley emulator clock advance DURATION --workspace ID`'
        : 'real: follows the wall clock';
    return `${style.bold(clock.now)} (its own clock, ${own})`;
  },
});
