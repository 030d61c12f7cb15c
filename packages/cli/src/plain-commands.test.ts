import { type Command, CommanderError } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LazyAction } from './_command-table';
import { buildProgram } from './_commander';
import { PLAIN_COMMAND_PATHS, plainInvocation } from './_plain-commands';
import { PLAIN_COMMANDS, runPlainCommand } from './_plain-run';

const VERSION = '9.8.7';
const BOOLEAN_FLAGS = ['--json', '--verbose', '--no-input', '--no-color'];

interface Ran {
  path: string;
  flags: Record<string, unknown>;
  args: Record<string, unknown>;
  load: () => Promise<unknown>;
}

let ran: Ran | undefined;
const recordingAction: LazyAction = (load, argumentNames = []) => {
  return async (...received) => {
    const command = received.at(-1) as Command;
    const path: string[] = [];
    for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
    ran = {
      path: path.join(' '),
      flags: command.optsWithGlobals(),
      args: Object.fromEntries(argumentNames.map((name, index) => [name, received[index]])),
      load,
    };
  };
};

/** What commander does with `args`: the action it ran, or undefined when it stopped (help, error). */
async function commanderRun(args: string[]): Promise<Ran | undefined> {
  ran = undefined;
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await buildProgram(VERSION, args, recordingAction).parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
  } finally {
    vi.restoreAllMocks();
  }
  return ran;
}

function leafCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => (child.commands.length ? leafCommands(child) : [child]));
}

function pathOf(command: Command): string {
  const path: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
  return path.join(' ');
}

/** Every subset of the boolean global flags, the empty one first. */
const flagSets = Array.from({ length: 2 ** BOOLEAN_FLAGS.length }, (_, bits) =>
  BOOLEAN_FLAGS.filter((_, index) => bits & (1 << index)),
);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('plain commands: their arguments read without commander', () => {
  it('are exactly the commands with no options, arguments, subcommands or parse() of their own', async () => {
    const eligible: string[] = [];
    for (const command of leafCommands(buildProgram(VERSION, [], recordingAction))) {
      if (command.options.length || command.registeredArguments.length) continue;
      const path = pathOf(command);
      const run = await commanderRun(path.split(' '));
      const module = (await run?.load()) as { default: { parse?: unknown } };
      if (!module.default.parse) eligible.push(path);
    }
    expect(eligible).toEqual([
      'status',
      'connections list',
      'emulator status',
      'emulator faults list',
      'emulator magic-numbers',
      'config set',
      'config list',
    ]);
    expect([...PLAIN_COMMANDS.keys()].sort()).toEqual([...eligible].sort());
  });

  it('the entry (cli.js) names exactly the commands whose modules the plain file (plain.js) holds', () => {
    expect([...PLAIN_COMMAND_PATHS]).toEqual([...PLAIN_COMMANDS.keys()]);
  });

  it('the plain file refuses a path that is not a plain command', async () => {
    await expect(runPlainCommand('send', { json: true })).rejects.toThrow('not a plain command: "send"');
    await expect(runPlainCommand('connections', {})).rejects.toThrow('not a plain command: "connections"');
  });

  it('no plain command reads commander: none has a parse() of its own', async () => {
    for (const load of PLAIN_COMMANDS.values()) expect((await load()).default.parse).toBeUndefined();
  });

  it.each([...PLAIN_COMMANDS.keys()])(
    "%s: every set of boolean global flags, before, after or between its words, gives commander's module and flags",
    async (path) => {
      const words = path.split(' ');
      for (const flags of flagSets) {
        const placements = [
          [...words, ...flags],
          [...flags, ...words],
          [...words.slice(0, 1), ...flags, ...words.slice(1)],
          [...words, ...flags, ...flags],
        ];
        for (const args of placements) {
          const commander = await commanderRun(args);
          const plain = plainInvocation(args);
          expect(commander, args.join(' ')).toBeDefined();
          expect(plain, args.join(' ')).toBeDefined();
          expect(plain?.flags, args.join(' ')).toStrictEqual(commander?.flags);
          expect(commander?.args).toEqual({});
          expect(await plain?.load()).toBe(await commander?.load());
        }
      }
    },
  );

  it('gives commander the flags for status --json, exactly', () => {
    expect(plainInvocation(['status', '--json'])?.flags).toStrictEqual({
      input: true,
      color: true,
      json: true,
    });
    expect(plainInvocation(['--no-color', 'status', '--verbose', '--no-input'])?.flags).toStrictEqual({
      input: false,
      color: false,
      verbose: true,
    });
  });

  it.each([
    [['status', '--help']],
    [['status', '-h']],
    [['--version', 'status']],
    [['status', '-v']],
    [['status', '--api-key', 'prl_sandbox_x']],
    [['--profile', 'staging', 'status']],
    [['status', '--profile=staging']],
    [['status', '--json=1']],
    [['status', '--jsn']],
    [['status', 'extra']],
    [['status', '-']],
    [['-', 'status']],
    [['--', 'status']],
    [['connections']],
    [['connections', 'list', 'extra']],
    [['connections list']],
    [['list', 'connections']],
    [['emulator', 'status', '--workspace', 'w']],
    [['help', 'status']],
    [['config', 'set', '--api-key', 'prl_sandbox_x']],
    [[]],
  ])('%j is left to commander', (args) => {
    expect(plainInvocation(args)).toBeUndefined();
  });
});
