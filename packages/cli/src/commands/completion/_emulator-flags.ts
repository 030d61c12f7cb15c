import type { OptionSpec } from './_spec';

/**
 * The flags of `parley emulator start`, which passes them to the emulator unparsed (they are
 * defined there). Completion cannot read them from commander, so they are listed here; a test
 * holds this list against the emulator's own `--help`.
 */
export const EMULATOR_START_FLAGS: readonly OptionSpec[] = [
  {
    flags: ['--port'],
    description: 'port to listen on (default 4010; 0 picks a free one)',
    takesValue: true,
    values: undefined,
  },
  {
    flags: ['--host'],
    description: 'address to bind (default 127.0.0.1)',
    takesValue: true,
    values: undefined,
  },
  {
    flags: ['--data-dir'],
    description: 'keep state in this directory across restarts',
    takesValue: true,
    values: 'files',
  },
  {
    flags: ['--repair'],
    description: 'drop damaged journal lines of --data-dir, then start',
    takesValue: false,
    values: undefined,
  },
  {
    flags: ['--clock'],
    description: 'real follows the wall clock; frozen moves only when advanced',
    takesValue: true,
    values: ['real', 'frozen'],
  },
  {
    flags: ['--url-policy'],
    description: 'webhook URL rule: local also accepts loopback; strict is production',
    takesValue: true,
    values: ['local', 'strict'],
  },
  {
    flags: ['--rate-limits'],
    description: 'per-minute rate limits',
    takesValue: true,
    values: ['on', 'off'],
  },
  {
    flags: ['--retry-schedule'],
    description: 'webhook retries: real (~20.5 h), fast (same shape in ~1 min), none',
    takesValue: true,
    values: ['real', 'fast', 'none'],
  },
  {
    flags: ['--seed'],
    description: 'JSON file of workspaces, applications, keys and endpoints to create',
    takesValue: true,
    values: 'files',
  },
  {
    flags: ['--version', '-v'],
    description: "show the emulator's version",
    takesValue: false,
    values: undefined,
  },
  { flags: ['--help', '-h'], description: "show the emulator's flags", takesValue: false, values: undefined },
];
