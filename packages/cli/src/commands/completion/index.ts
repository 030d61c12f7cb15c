import { ACTIVITY_STATUSES } from '@parley/emulator/rules';
import { SANDBOX_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import type { Command } from 'commander';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { terminalSafeText } from '../../output/terminal-safe';
import { defineCommand } from '../command-module';
import { bashScript } from './_bash';
import { emulatorStartFlags } from './_emulator-flags';
import { fishScript } from './_fish';
import { describeCommand, type ValueHints } from './_spec';
import { zshScript } from './_zsh';

/** `parley completion SHELL`: the program tree comes from commander itself. */
export interface CompletionOptions {
  shell: string;
  program: Command;
}

/** Values commander cannot know: event types come from the SDK, the one list of them. */
const VALUE_HINTS: ValueHints = {
  'trigger <event-type>': SANDBOX_EVENT_TYPES,
  'listen --events': WEBHOOK_EVENT_TYPES,
  // What the emulator filters its activity on; an exact code (404) is typed.
  'logs tail --status': ACTIVITY_STATUSES,
  '--body': 'files',
  '--headers': 'files',
  // Profile names are read when completing, from `parley config list --json`.
  '--profile': 'profiles',
  'config use <name>': 'profiles',
  'config delete <name>': 'profiles',
};

// A Map: the shell's name comes from the command line, and never indexes a plain object.
const GENERATORS = new Map([
  ['bash', bashScript],
  ['zsh', zshScript],
  ['fish', fishScript],
]);

/** Returns the completion script for `shell`: bash, zsh or fish. */
export async function completion(options: CompletionOptions, _context?: CommandContext): Promise<string> {
  const generate = GENERATORS.get(options.shell);
  if (!generate) throw usageError(`unknown shell "${options.shell}": use bash, zsh or fish`);
  // parley's --version and --help are its own; after `emulator start` they are the emulator's.
  const globalFlags = new Set(
    options.program.options
      .map((option) => option.long ?? '')
      .filter((flag) => flag !== '--version' && flag !== '--help'),
  );
  return generate(
    describeCommand(options.program, VALUE_HINTS, { 'emulator start': emulatorStartFlags(globalFlags) }),
  );
}

export default defineCommand({
  run: completion,
  parse: ({ args, command }) => {
    let program = command;
    while (program.parent) program = program.parent;
    return { shell: String(args.shell), program };
  },
  // The script is lines of the CLI's own making.
  ownText: true,
  render: (script) => terminalSafeText(script.trimEnd()),
});
