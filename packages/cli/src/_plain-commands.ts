// Commands whose only inputs are the global flags. Their arguments need no commander: reading
// them here spares `parley status --json` loading and building commander, a fifth of what the
// CLI added to a bare fetch (issue 23). Anything else goes to commander. Only the entry imports
// this file, so it is part of `dist/cli.js` (and nothing here may import a module statically).
import type { Command } from 'commander';
import type { CommandModule } from './commands/command-module';

/** Loads one command's module, as its commander action would. */
export type CommandLoader = () => Promise<{ default: CommandModule<unknown, unknown> }>;

/**
 * Commands without options, arguments or subcommands of their own, by path. The command table
 * defines each the same way (program.test.ts holds the two to the same modules and flags).
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

// The global flags that take no value, and what each sets in commander's flags.
const BOOLEAN_FLAGS = new Map<string, [name: string, value: boolean]>([
  ['--json', ['json', true]],
  ['--verbose', ['verbose', true]],
  ['--no-input', ['input', false]],
  ['--no-color', ['color', false]],
]);

/** A plain command and the flags commander would have given its action. */
export interface PlainInvocation {
  load: CommandLoader;
  flags: Record<string, unknown>;
}

/**
 * The plain command `args` (the arguments after `parley`) name, with its flags, when every
 * argument is a word of that command's path or a global flag without a value; undefined for
 * anything else (`--help`, `--profile NAME`, an unknown word or flag), which commander reads.
 */
export function plainInvocation(args: readonly string[]): PlainInvocation | undefined {
  const words: string[] = [];
  const flags: Record<string, unknown> = { input: true, color: true };
  for (const arg of args) {
    const flag = BOOLEAN_FLAGS.get(arg);
    if (flag) flags[flag[0]] = flag[1];
    else if (arg.startsWith('-') || /\s/.test(arg)) return undefined;
    else words.push(arg);
  }
  const load = PLAIN_COMMANDS.get(words.join(' '));
  return load && { load, flags };
}

/** Runs a plain command as its commander action would; resolves to the exit code, never exits. */
export async function runPlain({ load, flags }: PlainInvocation): Promise<number> {
  const [{ runCommand }, { default: commandModule }] = await Promise.all([import('./run-command'), load()]);
  // runCommand reads `command` only through a module's own parse(), which no plain command has
  // (plain-commands.test.ts checks): this path has no commander Command to give.
  return runCommand(commandModule, { flags, args: {}, command: undefined as unknown as Command });
}
