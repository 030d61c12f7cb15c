// No imports: the CLI's completion loads this table through @parley/emulator/rules, without a server.

/** One flag of `parley-emulator`, as parsing, `--help` and shell completion all read it. */
export interface EmulatorFlag {
  /** The long name, without the dashes: `port` is `--port`. */
  readonly name: string;
  /** One letter for the short spelling: `h` is `-h`. */
  readonly short?: string;
  /** `string` takes a value (`--port 4011`, `--port=4011`); `boolean` takes none. */
  readonly type: 'string' | 'boolean';
  /** What the value is called in `--help` (`<n>`, `<dir>`); a flag with choices shows them instead. */
  readonly valueName?: string;
  /** The only values the flag takes. */
  readonly choices?: readonly string[];
  /** What holds when the flag is not given, as `--help` says it. */
  readonly default?: string;
  /** The value is a path: completion offers files. */
  readonly path?: true;
  /** One line of `--help` (the default is added to it). */
  readonly help: string;
}

/** Every flag of `parley-emulator` (and `parley emulator start`), in `--help` order. */
export const EMULATOR_FLAGS = [
  {
    name: 'port',
    type: 'string',
    valueName: 'n',
    default: '4010',
    help: 'port to listen on; 0 picks a free one',
  },
  { name: 'host', type: 'string', valueName: 'host', default: '127.0.0.1', help: 'address to bind' },
  {
    name: 'data-dir',
    type: 'string',
    valueName: 'dir',
    path: true,
    default: 'in memory',
    help: 'keep state in this directory across restarts',
  },
  {
    name: 'repair',
    type: 'boolean',
    help: 'with --data-dir: drop damaged journal lines (listed on stderr), keep the rest, start',
  },
  {
    name: 'clock',
    type: 'string',
    choices: ['real', 'frozen'],
    default: 'real',
    help: 'real follows the wall clock; frozen moves only via POST /_emulator/clock/advance',
  },
  {
    name: 'url-policy',
    type: 'string',
    choices: ['local', 'strict'],
    default: 'local',
    help: "local also accepts http(s) webhook URLs on loopback hosts; strict is production's rule",
  },
  {
    name: 'rate-limits',
    type: 'string',
    choices: ['on', 'off'],
    default: 'on',
    help: 'per-minute rate limits',
  },
  {
    name: 'retry-schedule',
    type: 'string',
    choices: ['real', 'fast', 'none'],
    default: 'real',
    help: 'webhook retries: real 30 s × 2^k up to 6 h (12 attempts, ~20.5 h); fast the same shape in 61.55 s; none one attempt, then failed',
  },
  {
    name: 'seed',
    type: 'string',
    valueName: 'file',
    path: true,
    help: 'JSON file of workspaces, applications, keys and endpoints to create at start',
  },
  {
    name: 'import',
    type: 'string',
    valueName: 'file',
    path: true,
    help: 'start from an export bundle (GET /_emulator/export): its state, clocks and activity; at most 64 MiB',
  },
  { name: 'json', type: 'boolean', help: 'print one JSON ready line instead of the human summary' },
  { name: 'help', short: 'h', type: 'boolean', help: 'show this help' },
  { name: 'version', short: 'v', type: 'boolean', help: 'show the version' },
] as const satisfies readonly EmulatorFlag[];

/** The long name of a flag of {@link EMULATOR_FLAGS}. */
export type EmulatorFlagName = (typeof EMULATOR_FLAGS)[number]['name'];

/** How a flag is written in `--help`: `-h, --help`, `--port <n>`, `--clock <real|frozen>`. */
export function flagSpelling(flag: EmulatorFlag): string {
  const value = flag.choices ? flag.choices.join('|') : flag.valueName;
  return `${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${value === undefined ? '' : ` <${value}>`}`;
}

/** A flag's line of `--help`, without its spelling: the help, and the default when there is one. */
export function flagHelp(flag: EmulatorFlag): string {
  return flag.default === undefined ? flag.help : `${flag.help} (default ${flag.default})`;
}
