import type { CommandContext } from '../../context';
import { EXIT, ExitError } from '../../exit-error';
import { defineCommand } from '../command-module';

/** `parley emulator start [flags]`: the flags go to the emulator unchanged. */
export interface EmulatorStartOptions {
  argv: string[];
}

/** The emulator's own command-line entry (`parley-emulator`): one definition of its flags. */
type RunCli = (
  argv: readonly string[],
  io: { out: (line: string) => void; err: (line: string) => void },
) => Promise<number | { close(): Promise<void> }>;

/**
 * Runs the emulator in this process with the flags of `parley-emulator`, by delegating to the
 * emulator's own entry, until Ctrl-C or SIGTERM; then it persists and stops. The emulator
 * package is imported only here, so no other command pays for loading it.
 */
export async function startEmulator(
  options: EmulatorStartOptions,
  context: CommandContext,
): Promise<undefined> {
  const emulator = (await import('@parley/emulator')) as unknown as { runCli?: RunCli };
  if (typeof emulator.runCli !== 'function') {
    throw new ExitError(
      EXIT.config,
      'this @parley/emulator has no command-line entry: run `parley-emulator` instead',
    );
  }
  const result = await emulator.runCli(options.argv, {
    out: (line) => context.stdout.write(`${line}\n`),
    err: (line) => context.stderr.write(`${line}\n`),
  });
  if (typeof result === 'number') {
    if (result === 0) return undefined;
    throw new ExitError(result === 2 ? EXIT.usage : EXIT.api, 'the emulator did not start (see above)');
  }
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await result.close();
  context.stderr.write('Emulator stopped.\n');
  return undefined;
}

export default defineCommand({
  run: startEmulator,
  longRunning: true,
  // `--json` is also a global flag, so commander hands it to the program: pass it on.
  parse: ({ command, flags }) => ({ argv: [...command.args, ...(flags.json === true ? ['--json'] : [])] }),
});
