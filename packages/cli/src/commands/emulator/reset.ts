import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { workspaceOption } from './_id-option';

/** `parley emulator reset [--workspace ID]`. */
export interface EmulatorResetOptions extends ClientOptions {
  /** Reset this workspace only: its traffic goes, its set-up, time and every other workspace stay. */
  workspace?: string;
}

/** What `parley emulator reset` did. */
export interface EmulatorResetResult {
  ok: true;
  emulator: string;
  /** Present with `--workspace`. */
  workspace_id?: string;
}

/**
 * Puts the emulator back to its seed state (the default records plus its `--seed` file); with
 * `workspace`, clears that workspace's messages, deliveries, events, windows and faults only.
 */
export async function resetEmulator(
  options: EmulatorResetOptions,
  context: CommandContext,
): Promise<EmulatorResetResult> {
  const workspace = workspaceOption(options.workspace);
  const control = await openControl(options, context);
  if (workspace !== undefined) {
    await control.resetWorkspace(workspace);
    return { ok: true, emulator: control.origin, workspace_id: workspace };
  }
  await control.reset();
  return { ok: true, emulator: control.origin };
}

export default defineCommand({
  run: resetEmulator,
  render: (result) =>
    result.workspace_id === undefined
      ? `Emulator at ${result.emulator} reset to its seed state`
      : `Workspace ${result.workspace_id} reset: its messages, deliveries, events and faults cleared, its set-up and time kept`,
});
