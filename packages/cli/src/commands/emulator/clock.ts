import type { EmulatorClock } from '../../client/control-api';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { defineCommand } from '../command-module';
import { openControl } from './_open-control';

/** `parley emulator clock`: the emulator's time and whether it runs or stands still. */
export async function emulatorClock(options: ClientOptions, context: CommandContext): Promise<EmulatorClock> {
  const control = await openControl(options, context);
  return control.clock();
}

export default defineCommand({
  run: emulatorClock,
  render: (clock, { style }) =>
    `${style.bold(clock.now)} (${clock.mode === 'frozen' ? 'frozen: moves only with `parley emulator clock advance`' : 'real: follows the wall clock'})`,
});
