import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { ExitCode } from '../exit-error';

/** What commander parsed for one command: flags (with the globals), named arguments, the command. */
export interface ParsedInput {
  flags: Record<string, unknown>;
  args: Record<string, unknown>;
  command: Command;
}

/**
 * One command as the entry loads it (STYLE item 9): a plain async function from options to data,
 * and a human view of that data. `--json` prints the data itself.
 */
export interface CommandModule<Options, Data> {
  run(options: Options, context: CommandContext): Promise<Data>;
  /**
   * The human view of the data on stdout; nothing printed when absent or empty. It gets a copy of
   * the data with every string terminal-safe (control characters shown as `\u001b`), unless
   * {@link ownText} is set.
   */
  render?(data: Data, context: CommandContext): string;
  /**
   * The data is text of several lines that the CLI made or the user gave (a completion script, a
   * curl line): `render` gets it untouched and makes it terminal-safe itself.
   */
  ownText?: true;
  /** What `--json` prints; the data itself when absent. */
  json?(data: Data): unknown;
  /** Options from the command line; by default the flags merged with the named arguments. */
  parse?(input: ParsedInput): Options;
  /**
   * The exit code of data that was printed (default 0): a check that ran but found failures
   * (`webhooks doctor`) prints its whole report and still fails the process.
   */
  exitCode?(data: Data): ExitCode;
  /** The command runs until interrupted: SIGINT/SIGTERM abort `context.signal` instead of killing. */
  longRunning?: boolean;
}

/** Declares a command module with its types checked in one place. */
export function defineCommand<Options, Data>(
  module: CommandModule<Options, Data>,
): CommandModule<Options, Data> {
  return module;
}
