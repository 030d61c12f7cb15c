import { SANDBOX_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import type { Command } from 'commander';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { terminalSafeText } from '../../output/terminal-safe';
import { defineCommand } from '../command-module';
import { bashScript } from './_bash';
import { EMULATOR_START_FLAGS } from './_emulator-flags';
import { fishScript } from './_fish';
import { describeCommand, type ValueHints } from './_spec';
import { zshScript } from './_zsh';

/** `parley completion SHELL`: the program tree comes from commander itself. */
export interface CompletionOptions {
  shell: string;
  program: Command;
}

/** What `logs tail --status` offers: the classes and the words; an exact code (404) is typed. */
const LOG_STATUSES = [
  '2xx',
  '4xx',
  '5xx',
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'received',
  'pending',
];

/** Values commander cannot know: event types come from the SDK, the one list of them. */
const VALUE_HINTS: ValueHints = {
  'trigger <event-type>': SANDBOX_EVENT_TYPES,
  'listen --events': WEBHOOK_EVENT_TYPES,
  'logs tail --status': LOG_STATUSES,
  '--body': 'files',
  '--headers': 'files',
  // Profile names are read when completing, from `parley config list --json`.
  '--profile': 'profiles',
  'config use <name>': 'profiles',
  'config delete <name>': 'profiles',
};

const GENERATORS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** Returns the completion script for `shell`: bash, zsh or fish. */
export async function completion(options: CompletionOptions, _context?: CommandContext): Promise<string> {
  const generate = GENERATORS[options.shell as keyof typeof GENERATORS];
  if (!generate) throw usageError(`unknown shell "${options.shell}": use bash, zsh or fish`);
  return generate(describeCommand(options.program, VALUE_HINTS, { 'emulator start': EMULATOR_START_FLAGS }));
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
