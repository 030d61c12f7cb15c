// `parley` through commander: the program for the arguments, parsed and run, and its exit code.
// `cli.ts` answers `--version` and runs plain commands (`_plain-commands.ts`) without loading this.
import { type Command, CommanderError } from 'commander';
import type { LazyAction } from './_command-table';
import { buildProgram } from './_commander';
import { EXIT } from './exit-error';

/**
 * Parses `args` (the arguments after `parley`) with commander and runs the command they name;
 * resolves to the exit code and never exits. A usage error or shown help is an exit code; any
 * other error rejects, for the entry to report.
 */
export async function runProgram(version: string, args: readonly string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const lazy: LazyAction = (load, argumentNames = []) => {
    return async (...received) => {
      const command = received.at(-1) as Command;
      const named = Object.fromEntries(argumentNames.map((name, index) => [name, received[index]]));
      const [{ runCommand }, { default: commandModule }] = await Promise.all([
        import('./run-command'),
        load(),
      ]);
      exitCode = await runCommand(commandModule, { flags: command.optsWithGlobals(), args: named, command });
    };
  };
  try {
    await buildProgram(version, args, lazy).parseAsync();
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  return exitCode;
}
