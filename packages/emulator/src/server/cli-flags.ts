import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import {
  EMULATOR_FLAGS,
  type EmulatorFlag,
  type EmulatorFlagName,
  flagHelp,
  flagSpelling,
} from './emulator-flags';
import type { EmulatorServerOptions } from './start-server';

/** The parsed command line of `parley-emulator`. */
export interface CliFlags {
  server: EmulatorServerOptions;
  seedFile?: string;
  /** `--import FILE`: an export bundle to start from. */
  importFile?: string;
  /** `--repair`: drop damaged journal lines of the data dir before starting (only given with `--data-dir`). */
  repair?: true;
  json: boolean;
  help: boolean;
  version: boolean;
}

/** A command line that cannot be used; the bin prints the message and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const SPELLING_WIDTH = 28;
const HELP_WIDTH = 70;
const INDENT = ' '.repeat(2 + SPELLING_WIDTH);

/** The `--help` text, from {@link EMULATOR_FLAGS}. */
export const USAGE = [
  'Usage: parley-emulator [options]',
  '',
  'Runs the whole Parley sandbox locally: the /v1 API, signed webhooks, the control API and a web console.',
  '',
  'Options:',
  ...EMULATOR_FLAGS.flatMap(usageLines),
  '',
].join('\n');

/** A flag's lines of `--help`: its spelling, then its help wrapped in a column, the default unbroken. */
function usageLines(flag: EmulatorFlag): string[] {
  const spelling = flagSpelling(flag);
  const words = flag.help.split(' ');
  if (flag.default !== undefined) words.push(flagHelp(flag).slice(flag.help.length + 1));
  const help = wrap(words, HELP_WIDTH).map((line) => `${INDENT}${line}`);
  if (spelling.length >= SPELLING_WIDTH) return [`  ${spelling}`, ...help];
  return [`  ${spelling.padEnd(SPELLING_WIDTH)}${help[0]!.trimStart()}`, ...help.slice(1)];
}

function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** What parseArgs reads: each flag of the table, with its type and short spelling. */
const OPTIONS: ParseArgsOptionsConfig = Object.fromEntries(
  EMULATOR_FLAGS.map((flag) => [
    flag.name,
    'short' in flag ? { type: flag.type, short: flag.short } : { type: flag.type },
  ]),
);
// A Map: a name from the command line never indexes a plain object.
const FLAGS: ReadonlyMap<string, EmulatorFlag> = new Map(EMULATOR_FLAGS.map((flag) => [flag.name, flag]));

const unknownOption = (name: string) =>
  new UsageError(`Unknown option --${name}. Run parley-emulator --help.`);
const unexpectedArgument = (arg: string) =>
  new UsageError(`Unexpected argument ${JSON.stringify(arg)}. Run parley-emulator --help.`);

/** Parses `argv` (without node and the script); throws {@link UsageError} with a clear message. */
export function parseCliFlags(argv: readonly string[]): CliFlags {
  const flags: CliFlags = { server: {}, json: false, help: false, version: false };
  // Not strict: parseArgs only splits the arguments, the messages below are the bin's own.
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'option-terminator') throw unknownOption('');
    const arg = argv[token.index]!;
    // A short flag counts only as a whole argument (`-h`), as before: never `-hv` or `-h=1`.
    if (token.kind === 'positional' || (!arg.startsWith('--') && arg !== token.rawName)) {
      throw unexpectedArgument(arg);
    }
    const flag = FLAGS.get(token.name);
    if (!flag || (flag.type === 'boolean' && token.value !== undefined)) {
      throw arg.startsWith('--') ? unknownOption(token.name) : unexpectedArgument(arg);
    }
    if (flag.type === 'boolean') {
      SWITCHES[flag.name as SwitchName](flags);
      continue;
    }
    const value = token.value;
    if (value === undefined || value === '' || (!token.inlineValue && value.startsWith('--'))) {
      throw new UsageError(`Option --${token.name} needs a value.`);
    }
    VALUES[flag.name as ValueName](flags, value);
  }
  if (flags.repair && flags.server.dataDir === undefined) {
    throw new UsageError('--repair needs --data-dir: it repairs the journals of that directory.');
  }
  return flags;
}

type SwitchName = Extract<(typeof EMULATOR_FLAGS)[number], { type: 'boolean' }>['name'];
type ValueName = Exclude<EmulatorFlagName, SwitchName>;
type Choice<Name extends ValueName> = Extract<
  (typeof EMULATOR_FLAGS)[number],
  { name: Name; choices: readonly string[] }
>['choices'][number];

// One entry per flag of the table: a flag added there fails type-checking until it is read here.
const SWITCHES: Record<SwitchName, (flags: CliFlags) => void> = {
  repair: (flags) => {
    flags.repair = true;
  },
  json: (flags) => {
    flags.json = true;
  },
  help: (flags) => {
    flags.help = true;
  },
  version: (flags) => {
    flags.version = true;
  },
};

const VALUES: Record<ValueName, (flags: CliFlags, value: string) => void> = {
  port: ({ server }, value) => {
    const port = Number(value);
    if (!/^\d+$/.test(value) || port > 65_535) {
      throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(value)}).`);
    }
    server.port = port;
  },
  host: ({ server }, value) => {
    server.host = value;
  },
  'data-dir': ({ server }, value) => {
    server.dataDir = value;
  },
  clock: ({ server }, value) => {
    server.clock = choice('clock', value);
  },
  'url-policy': ({ server }, value) => {
    server.urlPolicy = choice('url-policy', value);
  },
  'rate-limits': ({ server }, value) => {
    server.rateLimits = choice('rate-limits', value) === 'on';
  },
  'retry-schedule': ({ server }, value) => {
    server.retrySchedule = choice('retry-schedule', value);
  },
  seed: (flags, value) => {
    flags.seedFile = value;
  },
  import: (flags, value) => {
    flags.importFile = value;
  },
};

/** `value` when it is one of the flag's choices, else a {@link UsageError} listing them. */
function choice<Name extends ValueName>(name: Name, value: string): Choice<Name> {
  const choices = FLAGS.get(name)?.choices ?? [];
  if (!choices.includes(value)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got ${JSON.stringify(value)}).`);
  }
  return value as Choice<Name>;
}
