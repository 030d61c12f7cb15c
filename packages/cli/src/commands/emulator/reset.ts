import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { defineCommand } from '../command-module';
import { openControl } from './_open-control';

/** What `parley emulator reset` did. */
export interface EmulatorResetResult {
  ok: true;
  emulator: string;
}

/** Puts the emulator back to its seed state (the default records plus its `--seed` file). */
export async function resetEmulator(
  options: ClientOptions,
  context: CommandContext,
): Promise<EmulatorResetResult> {
  const control = await openControl(options, context);
  await control.reset();
  return { ok: true, emulator: control.origin };
}

export default defineCommand({
  run: resetEmulator,
  render: (result) => `Emulator at ${result.emulator} reset to its seed state`,
});
