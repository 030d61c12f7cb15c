// `parley` past `--version`: a plain command straight away, anything else through commander, and
// the one place that turns what happened into an exit code. `cli.ts` answers `--version` itself.
import type { Command } from 'commander';
import type { LazyAction } from './_command-table';
import { type PlainInvocation, plainInvocation } from './_plain-commands';
import { EXIT } from './exit-error';

/**
 * Runs what `process.argv` asks for and resolves to the exit code; never exits. A plain command
 * runs without commander; anything else is parsed by commander with the commands it can reach.
 */
export async function runProgram(version: string): Promise<number> {
  const args = process.argv.slice(2);
  try {
    const plain = plainInvocation(args);
    return plain ? await runPlain(plain) : await runWithCommander(version, args);
  } catch (error) {
    process.stderr.write(
      `parley: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    return EXIT.api;
  }
}

async function runPlain({ load, flags }: PlainInvocation): Promise<number> {
  const [{ runCommand }, { default: commandModule }] = await Promise.all([import('./run-command'), load()]);
  // runCommand reads `command` only through a module's own parse(), which no plain command has
  // (program.test.ts checks): this path has no commander Command to give.
  return runCommand(commandModule, { flags, args: {}, command: undefined as unknown as Command });
}

async function runWithCommander(version: string, args: readonly string[]): Promise<number> {
  const { buildProgram, CommanderError } = await import('./_commander');
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
