import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { EmulatorServerOptions } from './start-server';

/** The parsed command line of `parley-emulator`. */
export interface CliFlags {
  server: EmulatorServerOptions;
  seedFile?: string;
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

/** The `--help` text. */
export const USAGE = `Usage: parley-emulator [options]

Runs the whole Parley sandbox locally: the /v1 API, signed webhooks, the control API and a web console.

Options:
  --port <n>                  port to listen on (default 4010; 0 picks a free one)
  --host <host>               address to bind (default 127.0.0.1)
  --data-dir <dir>            keep state in this directory across restarts (default: in memory)
  --repair                    with --data-dir: drop damaged journal lines (listed on stderr), keep the rest, start
  --clock <real|frozen>       real follows the wall clock; frozen moves only via POST /_emulator/clock/advance (default real)
  --url-policy <local|strict> local also accepts http(s) webhook URLs on loopback hosts; strict is production's rule (default local)
  --rate-limits <on|off>      per-minute rate limits (default on)
  --retry-schedule <real|fast|none>
                              webhook retries: real 30 s × 2^k up to 6 h (12 attempts, ~20.5 h); fast the same
                              shape in 61.55 s; none one attempt, then failed (default real)
  --seed <file>               JSON file of workspaces, applications, keys and endpoints to create at start
  --json                      print one JSON ready line instead of the human summary
  -h, --help                  show this help
  -v, --version               show the version
`;

const CHOICES = {
  clock: ['real', 'frozen'],
  'url-policy': ['local', 'strict'],
  'rate-limits': ['on', 'off'],
  'retry-schedule': ['real', 'fast', 'none'],
} as const;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  clock: { type: 'string' },
  'url-policy': { type: 'string' },
  'rate-limits': { type: 'string' },
  'retry-schedule': { type: 'string' },
  seed: { type: 'string' },
  repair: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies ParseArgsOptionsConfig;
type OptionName = keyof typeof OPTIONS;

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
    const option = Object.hasOwn(OPTIONS, token.name) ? OPTIONS[token.name as OptionName] : undefined;
    if (!option || (option.type === 'boolean' && token.value !== undefined)) {
      throw arg.startsWith('--') ? unknownOption(token.name) : unexpectedArgument(arg);
    }
    if (option.type === 'boolean') {
      if (token.name === 'repair') flags.repair = true;
      else flags[token.name as 'json' | 'help' | 'version'] = true;
      continue;
    }
    const value = token.value;
    if (value === undefined || value === '' || (!token.inlineValue && value.startsWith('--'))) {
      throw new UsageError(`Option --${token.name} needs a value.`);
    }
    applyFlag(flags, token.name, value);
  }
  if (flags.repair && flags.server.dataDir === undefined) {
    throw new UsageError('--repair needs --data-dir: it repairs the journals of that directory.');
  }
  return flags;
}

function choice<Name extends keyof typeof CHOICES>(
  name: Name,
  value: string,
): (typeof CHOICES)[Name][number] {
  if (!(CHOICES[name] as readonly string[]).includes(value)) {
    throw new UsageError(
      `--${name} must be one of ${CHOICES[name].join(', ')} (got ${JSON.stringify(value)}).`,
    );
  }
  return value as (typeof CHOICES)[Name][number];
}

function applyFlag(flags: CliFlags, name: string, value: string): void {
  const server = flags.server;
  switch (name) {
    case 'port': {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port > 65_535) {
        throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(value)}).`);
      }
      server.port = port;
      return;
    }
    case 'host':
      server.host = value;
      return;
    case 'data-dir':
      server.dataDir = value;
      return;
    case 'clock':
      server.clock = choice('clock', value);
      return;
    case 'url-policy':
      server.urlPolicy = choice('url-policy', value);
      return;
    case 'rate-limits':
      server.rateLimits = choice('rate-limits', value) === 'on';
      return;
    case 'retry-schedule':
      server.retrySchedule = choice('retry-schedule', value);
      return;
    case 'seed':
      flags.seedFile = value;
      return;
  }
}
