// The plain commands (`_plain-commands.ts`) and what runs them, built as one file of their own
// (`dist/plain.js`, see tsup.config.ts): `parley status --json` then reads cli.js and this file
// instead of the 13 chunks that code splitting cut the same code into, which cost ~6 ms of a
// ~90 ms bare fetch on a quiet 2-core machine (issue 23). The other commands go through commander
// and the split chunks as before.
import type { Command } from 'commander';
import type { CommandModule } from './commands/command-module';
import { runCommand } from './run-command';

/** Loads one command's module, as its commander action would. */
export type CommandLoader = () => Promise<{ default: CommandModule<unknown, unknown> }>;

/**
 * The plain commands' modules by path: commands without options, arguments or subcommands of their
 * own. The command table defines each the same way, and `PLAIN_COMMAND_PATHS` (in the entry) names
 * the same paths (plain-commands.test.ts holds the three together).
 */
export const PLAIN_COMMANDS: ReadonlyMap<string, CommandLoader> = new Map<string, CommandLoader>([
  ['status', () => import('./commands/status/index')],
  ['connections list', () => import('./commands/connections/index')],
  ['emulator status', () => import('./commands/emulator/status')],
  ['emulator faults list', () => import('./commands/emulator/faults-list')],
  ['emulator magic-numbers', () => import('./commands/emulator/magic-numbers')],
  ['config set', () => import('./commands/config/set')],
  ['config list', () => import('./commands/config/list')],
]);

/** The module of the plain command at `path`; rejects for a path that is not a plain command. */
export function loadPlainCommand(path: string): ReturnType<CommandLoader> {
  const load = PLAIN_COMMANDS.get(path);
  if (!load) return Promise.reject(new Error(`not a plain command: ${JSON.stringify(path)}`));
  return load();
}

/**
 * Runs the plain command at `path` with `flags` as its commander action would; resolves to the exit
 * code, never exits. A path that is not a plain command rejects (the entry reports it).
 */
export async function runPlainCommand(path: string, flags: Record<string, unknown>): Promise<number> {
  const { default: commandModule } = await loadPlainCommand(path);
  // runCommand reads `command` only through a module's own parse(), which no plain command has
  // (plain-commands.test.ts checks): this path has no commander Command to give.
  return runCommand(commandModule, { flags, args: {}, command: undefined as unknown as Command });
}
