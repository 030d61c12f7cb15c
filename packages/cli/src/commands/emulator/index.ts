import type { CommandContext } from '../../context';
import { EXIT, ExitError } from '../../exit-error';
import { defineCommand } from '../command-module';

/** `parley emulator start [flags]`: the flags are passed on unchanged. */
export interface EmulatorStartOptions {
  argv: string[];
}

/** Starts the emulator in this process (wired to the emulator's own entry once it lands). */
export async function startEmulator(
  _options: EmulatorStartOptions,
  _context: CommandContext,
): Promise<undefined> {
  throw new ExitError(EXIT.config, 'the emulator is not available in this build yet: run `pnpm emulator`');
}

export default defineCommand({
  run: startEmulator,
  parse: ({ command }) => ({ argv: command.args }),
});
