import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { RETRY_SCHEDULES } from '../index';
import { parseCliFlags, USAGE, UsageError } from './cli-flags';
import { EMULATOR_FLAGS, flagHelp, flagSpelling } from './emulator-flags';

describe('parley-emulator flags (DESIGN §4)', () => {
  test('every flag, in both --flag value and --flag=value forms', () => {
    const flags = parseCliFlags([
      '--port',
      '4011',
      '--host=localhost',
      '--data-dir',
      '.parley',
      '--clock=frozen',
      '--url-policy',
      'strict',
      '--rate-limits',
      'off',
      '--retry-schedule=fast',
      '--seed',
      'seed.json',
      '--json',
    ]);
    expect(flags).toEqual({
      server: {
        port: 4011,
        host: 'localhost',
        dataDir: '.parley',
        clock: 'frozen',
        urlPolicy: 'strict',
        rateLimits: false,
        retrySchedule: 'fast',
      },
      seedFile: 'seed.json',
      json: true,
      help: false,
      version: false,
    });
    expect(parseCliFlags([])).toMatchObject({ server: {}, json: false });
  });

  test.each([
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port/],
    [['--clock', 'slow'], /--clock must be one of real, frozen/],
    [['--url-policy', 'open'], /--url-policy must be one of local, strict/],
    [['--rate-limits', 'maybe'], /--rate-limits must be one of on, off/],
    [['--retry-schedule', 'slow'], /--retry-schedule must be one of real, fast, none/],
    [['--seed'], /--seed needs a value/],
    [['--port', '--json'], /--port needs a value/],
    [['--verbose'], /Unknown option --verbose/],
    [['start'], /Unexpected argument "start"/],
  ])('%j is refused with a clear message', (argv, message) => {
    expect(() => parseCliFlags(argv)).toThrow(UsageError);
    expect(() => parseCliFlags(argv)).toThrow(message);
  });

  test('--repair goes with --data-dir, and only there', () => {
    expect(parseCliFlags(['--data-dir', '.parley', '--repair'])).toEqual({
      server: { dataDir: '.parley' },
      repair: true,
      json: false,
      help: false,
      version: false,
    });
    expect(parseCliFlags(['--data-dir', '.parley'])).not.toHaveProperty('repair');
    expect(() => parseCliFlags(['--repair'])).toThrow(
      new UsageError('--repair needs --data-dir: it repairs the journals of that directory.'),
    );
    expect(() => parseCliFlags(['--data-dir', '.parley', '--repair=yes'])).toThrow(
      new UsageError('Unknown option --repair. Run parley-emulator --help.'),
    );
  });
});

describe('one flag table (server/emulator-flags.ts) feeds parsing and --help', () => {
  test('--help is the table, one flag after the other, help wrapped in its column', () => {
    // A newline first, so the text lines up below.
    expect(`\n${USAGE}`).toBe(`
Usage: parley-emulator [options]

Runs the whole Parley sandbox locally: the /v1 API, signed webhooks, the control API and a web console.

Options:
  --port <n>                  port to listen on; 0 picks a free one (default 4010)
  --host <host>               address to bind (default 127.0.0.1)
  --data-dir <dir>            keep state in this directory across restarts (default in memory)
  --repair                    with --data-dir: drop damaged journal lines (listed on stderr), keep
                              the rest, start
  --clock <real|frozen>       real follows the wall clock; frozen moves only via POST
                              /_emulator/clock/advance (default real)
  --url-policy <local|strict> local also accepts http(s) webhook URLs on loopback hosts; strict is
                              production's rule (default local)
  --rate-limits <on|off>      per-minute rate limits (default on)
  --retry-schedule <real|fast|none>
                              webhook retries: real 30 s × 2^k up to 6 h (12 attempts, ~20.5 h);
                              fast the same shape in 61.55 s; none one attempt, then failed
                              (default real)
  --seed <file>               JSON file of workspaces, applications, keys and endpoints to create at
                              start
  --import <file>             start from an export bundle (GET /_emulator/export): its state, clocks
                              and activity; at most 64 MiB
  --json                      print one JSON ready line instead of the human summary
  -h, --help                  show this help
  -v, --version               show the version
`);
  });

  test('every flag of the table parses, and its choices are exactly those it takes', () => {
    for (const flag of EMULATOR_FLAGS) {
      const spelled = [`--${flag.name}`, ...('short' in flag ? [`-${flag.short}`] : [])];
      for (const spelling of spelled) {
        if (flag.type === 'boolean') {
          const argv = flag.name === 'repair' ? ['--data-dir', 'd', spelling] : [spelling];
          expect(() => parseCliFlags(argv), spelling).not.toThrow();
          expect(() => parseCliFlags([...argv.slice(0, -1), `${spelling}=1`]), spelling).toThrow(UsageError);
          continue;
        }
        const values = 'choices' in flag ? flag.choices : ['4011'];
        for (const value of values) expect(() => parseCliFlags([spelling, value]), spelling).not.toThrow();
        if ('choices' in flag) {
          expect(() => parseCliFlags([spelling, 'sideways'])).toThrow(
            new UsageError(`--${flag.name} must be one of ${flag.choices.join(', ')} (got "sideways").`),
          );
        }
      }
    }
    const retrySchedule = EMULATOR_FLAGS.find((flag) => flag.name === 'retry-schedule');
    expect(retrySchedule?.choices).toEqual(Object.keys(RETRY_SCHEDULES));
  });

  test('a name of Object.prototype is an unknown option, not a flag', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(() => parseCliFlags([`--${name}`, 'x'])).toThrow(
        new UsageError(`Unknown option --${name}. Run parley-emulator --help.`),
      );
    }
  });

  test("docs/emulator.md's flag table lists exactly these flags, spelled and defaulted as the table says", () => {
    const docs = readFileSync(new URL('../../../../docs/emulator.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Flags'), docs.indexOf('\n## ', docs.indexOf('## Flags') + 1));
    const rows = [...section.matchAll(/^\| `(--[^`]+)` +\| ([^|]*?) +\|/gm)].map(([, spelling, cell]) => [
      spelling!.replaceAll('\\|', '|'),
      cell!.replaceAll('`', ''),
    ]);
    const documented = EMULATOR_FLAGS.filter((flag) => flag.name !== 'help' && flag.name !== 'version');
    expect(rows).toEqual(
      documented.map((flag) => [flagSpelling(flag), 'default' in flag ? flag.default : '']),
    );
    expect(section).toContain('| `-h`, `--help` / `-v`, `--version`');
    expect(flagHelp(EMULATOR_FLAGS[0])).toBe('port to listen on; 0 picks a free one (default 4010)');
  });
});
