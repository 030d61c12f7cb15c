import type { CommandContext } from '../../context';
import { EXIT, ExitError } from '../../exit-error';
import { examplesText } from '../../help-examples';
import { importEmulator } from '../_import-emulator';
import { defineCommand } from '../command-module';

/** `parley emulator start [flags]`: the flags go to the emulator unchanged. */
export interface EmulatorStartOptions {
  argv: string[];
}

/**
 * Runs the emulator with the flags of `parley-emulator` until Ctrl-C or SIGTERM, then lets it
 * save its state and stop. It runs the emulator's own entry (`runCli`, what `parley-emulator`
 * runs) in process, so the flags are defined once. The emulator package is imported only here,
 * so no other command pays for loading it.
 */
export async function startEmulator(
  options: EmulatorStartOptions,
  context: CommandContext,
): Promise<undefined> {
  const { runCli } = await importEmulator(EMULATOR_MISSING);
  const result = await runCli(options.argv, {
    out: (line) => context.stdout.write(`${line}\n`),
    err: (line) => context.stderr.write(`${line}\n`),
  });
  // The help is the emulator's own (its flags are defined there); the examples are the CLI's.
  if (result === 0 && options.argv.some((arg) => arg === '--help' || arg === '-h')) {
    context.stdout.write(`${examplesText('emulator start').trimStart()}\n`);
  }
  if (typeof result === 'number') return exitFor(result);
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await result.close();
  return undefined;
}

/** What `parley emulator start` says when the optional peer `@parley/emulator` is not installed. */
export const EMULATOR_MISSING =
  'parley emulator start needs @parley/emulator: npm install -D @parley/emulator';

/** The emulator's exit code in the CLI's terms: stopped by a signal is a normal end. */
function exitFor(code: number): undefined {
  if (code === 0 || code === 130 || code === 143) return undefined;
  throw new ExitError(
    code === 2 ? EXIT.usage : EXIT.api,
    'the emulator did not start (see its message above)',
  );
}

export default defineCommand({
  run: startEmulator,
  longRunning: true,
  // `--json` is also a global flag, so commander gives it to the program: pass it on.
  parse: ({ command, flags }) => ({ argv: [...command.args, ...(flags.json === true ? ['--json'] : [])] }),
});
