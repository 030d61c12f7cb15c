// Random server strings full of control, C1 and bidi characters through the built CLI: whatever a
// server answers, what reaches the terminal holds none of them, only their visible \uXXXX text.
// packages/cli/src/output/terminal-safe-commands.test.ts runs every printing command with one
// hostile string; this runs a few commands with many random ones.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertCliBuilt,
  type HostileApi,
  MISSING_MESSAGE_ID,
  runCli,
  startHostileApi,
} from '@parley/test-utils';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';

// The characters a terminal acts on (C0, DEL, C1), that reorder text (bidi controls) or break a
// line (U+2028/9), written here rather than imported from the CLI: the test keeps its own list.
const UNSAFE_CODES = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, index) => 0x7f + index),
  0x061c,
  0x200e,
  0x200f,
  0x2028,
  0x2029,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
];
const UNSAFE = new Set(UNSAFE_CODES.map((code) => String.fromCharCode(code)));

/** What the CLI must print for `text`: each unsafe character as its \uXXXX text. */
const shownAs = (text: string) =>
  [...text]
    .map((character) =>
      UNSAFE.has(character) ? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}` : character,
    )
    .join('');

/** Output with no unsafe character but its own line feeds (NO_COLOR: the CLI adds no escape either). */
const rawUnsafe = (output: string) =>
  [...output].filter((character) => character !== '\n' && UNSAFE.has(character));

// Sequences that do something, their pieces, and ordinary text around them.
const hostileText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...UNSAFE),
    fc.constantFrom('\x1b[2J', '\x1b]0;pwned\x07', '\x1b[31m', '\u009b6n', '\x1bc', 'invoice\u202efdp.exe'),
    fc.constantFrom('[', ']', ';', '0', '2', 'J', 'm', '?', ' ', '\\', 'u'),
    fc.constantFrom('é', '…', '✓', '日本', '\u00a0', '\u200d', '😀'),
  ),
  minLength: 1,
  maxLength: 24,
});

const KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const RUNS = 10;
// [arguments, exit code, whether the output shows the whole string (a field printed as it is)]
const COMMANDS: [string[], number, boolean][] = [
  [['connections', 'list'], 0, true],
  [['messages', 'get', MISSING_MESSAGE_ID], 1, false],
  [['emulator', 'faults', 'list'], 0, true],
  [['emulator', 'status'], 0, true],
  [['status', '--verbose'], 0, true],
  [['config', 'list'], 0, true],
];

let current = '';
let api: HostileApi;
let home: string;
beforeAll(async () => {
  assertCliBuilt();
  api = await startHostileApi(() => current);
  home = await mkdtemp(join(tmpdir(), 'parley-terminal-chars-'));
  await mkdir(join(home, 'parley'), { recursive: true });
});
afterAll(async () => {
  await api?.close();
  await rm(home, { recursive: true, force: true });
});

describe('terminal control characters', () => {
  // Each run starts six CLI processes: the time allowed is for a loaded machine, not a measure.
  test('random server strings never reach the terminal raw, only as their \\u text', {
    timeout: 300_000,
  }, async () => {
    const env = { PARLEY_API_KEY: KEY, PARLEY_BASE_URL: api.baseUrl, XDG_CONFIG_HOME: home, NO_COLOR: '1' };
    let runs = 0;
    let printed = 0;
    let unsafeSent = 0;
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        current = text;
        unsafeSent += [...text].filter((character) => UNSAFE.has(character)).length;
        // `config list` prints a hand-written base URL: the config file is outside input too.
        await writeFile(
          join(home, 'parley', 'config.json'),
          JSON.stringify({ profiles: { default: { api_key: KEY, base_url: text } } }),
        );
        for (const [args, code, whole] of COMMANDS) {
          const result = await runCli(args, env);
          const output = result.stdout + result.stderr;
          runs++;
          printed += output.length;
          expect(rawUnsafe(output), `parley ${args.join(' ')}`).toEqual([]);
          expect(result.code, `parley ${args.join(' ')}: ${output}`).toBe(code);
          if (whole) expect(output).toContain(shownAs(text).trim());
        }
      }),
      { numRuns: RUNS },
    );
    recordFigure({
      test: 'terminal control characters',
      load: `${RUNS} random strings of control, C1, bidi and escape sequences × ${COMMANDS.length} CLI commands`,
      proved:
        'whatever a server or the config file holds, the terminal gets no control, C1 or bidi character from it',
      figures: `${runs} runs, ${unsafeSent} unsafe characters in the strings, ${printed.toLocaleString('en')} characters printed, 0 raw`,
    });
  });
});
