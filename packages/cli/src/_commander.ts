// The program as commander reads it: the global flags and the commands the arguments can reach.
import { Command } from 'commander';
import { COMMAND_TABLE, type LazyAction } from './_command-table';
import { docsLink, examplesText } from './help-examples';

// Global flags whose next word is their value, never a command name.
const GLOBAL_FLAGS_WITH_VALUE = new Set(['--api-key', '--base-url', '--profile']);
// Commands that read the whole command tree (completion scripts are generated from it).
const NEEDS_WHOLE_TREE = new Set(['completion']);

/**
 * The program for `args` (the arguments after `parley`): the global flags and only the top-level
 * command they name, with its subcommands. A command's help shows its own flags and the global
 * ones, never its siblings, so `parley send …` is parsed and helped exactly as with every command
 * known, without building the forty it cannot reach. Anything else (`--help`, `help`, a typo,
 * `completion`) gets the whole tree, so every message stays the one commander gives.
 */
export function buildProgram(version: string, args: readonly string[], lazy: LazyAction): Command {
  const program = createProgram(version);
  const requested = requestedCommand(args);
  const defineOnly =
    requested === undefined || NEEDS_WHOLE_TREE.has(requested) ? undefined : COMMAND_TABLE.get(requested);
  if (defineOnly) defineOnly(program, lazy);
  else for (const defineCommand of COMMAND_TABLE.values()) defineCommand(program, lazy);
  (function addExamples(command: Command, path: string) {
    command.addHelpText('after', examplesText(path));
    for (const child of command.commands) addExamples(child, `${path} ${child.name()}`.trim());
  })(program, '');
  return program;
}

/**
 * The first word of `args` that is not a global flag or its value: the top-level command named,
 * or undefined. A lone `-` is a word (commander reads it as an operand); `--` ends the search.
 */
export function requestedCommand(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') return undefined;
    if (GLOBAL_FLAGS_WITH_VALUE.has(arg)) index++;
    else if (arg.length < 2 || !arg.startsWith('-')) return arg;
  }
  return undefined;
}

function createProgram(version: string): Command {
  return (
    new Command('parley')
      .description('Parley messaging API from the terminal: send, inspect, trigger and listen to webhooks')
      .version(version, '-v, --version', 'print the version')
      .helpOption('-h, --help', 'show help for a command')
      // Set before the commands are added, which copy it: every --help lists the global flags.
      .configureHelp({ showGlobalOptions: true })
      .option('--api-key <key>', 'API key (default: PARLEY_API_KEY, then the profile)')
      .option('--base-url <url>', 'API base URL ending in /v1 (default: PARLEY_BASE_URL, then the profile)')
      .option('--profile <name>', 'saved profile to use (default: PARLEY_PROFILE, then `config use`)')
      .option('--json', 'print only the data as JSON on stdout (errors as {"error":{…}})')
      .option('--no-input', 'never prompt; missing arguments are usage errors')
      .option('--no-color', 'plain text output (also NO_COLOR=1 or when not a terminal)')
      .option(
        '--verbose',
        'log every API attempt to stderr: status, request id, retries (also PARLEY_LOG=debug)',
      )
      .showHelpAfterError('(add --help for usage)')
      .exitOverride()
      .addHelpText(
        'after',
        `
Exit codes:
  0  ok
  1  the API refused the call, or the check failed (message failed, signature invalid)
  2  usage error: missing or wrong arguments
  3  network or configuration error: no key or base URL, server unreachable
  130  interrupted (Ctrl-C)
Environment: PARLEY_API_KEY, PARLEY_BASE_URL, PARLEY_PROFILE, PARLEY_WEBHOOK_SECRET, NO_COLOR
Docs: ${docsLink('cli.md')}`,
      )
  );
}
