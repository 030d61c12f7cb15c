// Commands whose only inputs are the global flags. Their arguments need no commander: reading
// them here spares `parley status --json` loading and building commander, a fifth of what the
// CLI added to a bare fetch (issue 23). Anything else goes to commander. Only the entry imports
// this file, so it is part of `dist/cli.js` (and nothing here may import a module statically);
// the commands' code and what runs them is `_plain-run.ts`, one file of its own in dist.
import type { CommandLoader } from './_plain-run';

/**
 * The paths of the commands without options, arguments or subcommands of their own. Their modules
 * are `_plain-run.ts`'s PLAIN_COMMANDS, not loaded until one of these runs (plain-commands.test.ts
 * holds the two lists and the command table to the same commands, modules and flags).
 */
export const PLAIN_COMMAND_PATHS: ReadonlySet<string> = new Set([
  'status',
  'connections list',
  'emulator status',
  'emulator faults list',
  'emulator magic-numbers',
  'config set',
  'config list',
]);

// The global flags that take no value, and what each sets in commander's flags.
const BOOLEAN_FLAGS = new Map<string, [name: string, value: boolean]>([
  ['--json', ['json', true]],
  ['--verbose', ['verbose', true]],
  ['--no-input', ['input', false]],
  ['--no-color', ['color', false]],
]);

/** A plain command, the flags commander would have given its action, and its module. */
export interface PlainInvocation {
  path: string;
  flags: Record<string, unknown>;
  /** The command's module, as commander's action loads it. */
  load: CommandLoader;
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
  const path = words.join(' ');
  if (!PLAIN_COMMAND_PATHS.has(path)) return undefined;
  return { path, flags, load: async () => (await import('./_plain-run')).loadPlainCommand(path) };
}

/** Runs a plain command as its commander action would; resolves to the exit code, never exits. */
export async function runPlain({ path, flags }: PlainInvocation): Promise<number> {
  return (await import('./_plain-run')).runPlainCommand(path, flags);
}
