import { describe, expect, test } from 'vitest';
import { parseCliFlags, UsageError } from './cli-flags';

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
