import { type Command, CommanderError } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMAND_TABLE, type LazyAction } from './_command-table';
import { buildProgram, requestedCommand } from './_commander';
import { EXIT } from './exit-error';

const VERSION = '9.8.7';
const ALL = [...COMMAND_TABLE.keys()];

/** Every command path of a program: ['status'], ['emulator', 'faults', 'add'], … */
function commandPaths(command: Command, parent: string[] = []): string[][] {
  return command.commands.flatMap((child) => {
    const path = [...parent, child.name()];
    return [path, ...commandPaths(child, path)];
  });
}

function commandAt(program: Command, path: readonly string[]): Command {
  let command = program;
  for (const name of path) {
    const child = command.commands.find((candidate) => candidate.name() === name);
    if (!child) throw new Error(`no command ${path.join(' ')}`);
    command = child;
  }
  return command;
}

/** The help a command prints, with every text added before and after it (examples included). */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

/** What parsing `args` gives: the action that ran with its flags and arguments, or commander's error. */
async function parse(program: Command, args: string[]) {
  ran = undefined;
  let printed = '';
  const write = (chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(write);
  vi.spyOn(process.stderr, 'write').mockImplementation(write);
  try {
    await program.parseAsync(args, { from: 'user' });
    return { ran, printed };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { ran, error: { code: error.code, exitCode: error.exitCode, message: error.message }, printed };
  } finally {
    vi.restoreAllMocks();
  }
}

let ran: { path: string; flags: Record<string, unknown>; args: Record<string, unknown> } | undefined;
const recordingAction: LazyAction = (_load, argumentNames = []) => {
  return async (...received) => {
    const command = received.at(-1) as Command;
    const path: string[] = [];
    for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
    ran = {
      path: path.join(' '),
      flags: command.optsWithGlobals(),
      args: Object.fromEntries(argumentNames.map((name, index) => [name, received[index]])),
    };
  };
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('requestedCommand: the top-level command the arguments name', () => {
  it.each([
    { args: ['status', '--json'], named: 'status' },
    { args: ['--json', '--no-color', 'status'], named: 'status' },
    { args: ['--profile', 'status', 'send'], named: 'send' },
    {
      args: ['--api-key', 'prl_sandbox_x', '--base-url', 'http://127.0.0.1:4010/v1', 'emulator', 'clock'],
      named: 'emulator',
    },
    { args: ['--profile=staging', 'config', 'list'], named: 'config' },
    { args: ['--jsn', 'status'], named: 'status' },
    { args: ['-', 'status'], named: '-' },
    { args: ['stauts'], named: 'stauts' },
    { args: ['help', 'status'], named: 'help' },
    { args: ['--', 'status'], named: undefined },
    { args: ['--help'], named: undefined },
    { args: ['--profile'], named: undefined },
    { args: [], named: undefined },
  ])('$args → $named', ({ args, named }) => {
    expect(requestedCommand(args)).toBe(named);
  });
});

describe('buildProgram defines only the command the arguments name', () => {
  it.each([
    { args: ['status', '--json'], defined: ['status'] },
    { args: ['--profile', 'staging', 'emulator', 'faults', 'add'], defined: ['emulator'] },
    { args: ['messages', 'get', 'x'], defined: ['messages'] },
    { args: ['completion', 'bash'], defined: ALL },
    { args: ['help', 'status'], defined: ALL },
    { args: ['stauts'], defined: ALL },
    { args: ['--help'], defined: ALL },
    { args: [], defined: ALL },
  ])('$args defines $defined', ({ args, defined }) => {
    const program = buildProgram(VERSION, args, recordingAction);
    expect(program.commands.map((command) => command.name())).toEqual(defined);
  });

  it('lists the fifteen top-level commands of the whole tree in their help order', () => {
    expect(ALL).toEqual([
      'status',
      'send',
      'messages',
      'connections',
      'templates',
      'trigger',
      'listen',
      'webhooks',
      'chat',
      'logs',
      'emulator',
      'mcp',
      'config',
      'scenario',
      'completion',
    ]);
  });

  it('every command prints the same help defined alone as in the whole tree', () => {
    const whole = buildProgram(VERSION, [], recordingAction);
    const paths = commandPaths(whole);
    expect(paths).toHaveLength(42);
    for (const path of paths) {
      const alone = buildProgram(VERSION, path, recordingAction);
      expect(helpOf(commandAt(alone, path)), path.join(' ')).toBe(helpOf(commandAt(whole, path)));
    }
  });

  it("parses to the action with its flags, or to commander's error and message", async () => {
    expect(
      await parse(buildProgram(VERSION, ['status', '--json'], recordingAction), ['status', '--json']),
    ).toEqual({
      ran: { path: 'status', flags: { input: true, color: true, json: true }, args: {} },
      printed: '',
    });
    const invalid = ['emulator', 'faults', 'add', '--method', 'FETCH'];
    const message =
      "error: option '--method <method>' argument 'FETCH' is invalid. Allowed choices are GET, POST, PUT, PATCH, DELETE.";
    expect(await parse(buildProgram(VERSION, invalid, recordingAction), invalid)).toEqual({
      ran: undefined,
      error: { code: 'commander.invalidArgument', exitCode: 1, message },
      printed: `${message}\n(add --help for usage)\n`,
    });
  });

  it.each([
    { args: ['status', '--json'] },
    { args: ['--json', '--profile', 'staging', 'status'] },
    { args: ['status', 'extra'] },
    { args: ['status', '--jsn'] },
    { args: ['status', '--help'] },
    { args: ['send', '--to', '+33612345678', '--wait', 'read', '--var', 'Ada', 'A-1', '--json'] },
    { args: ['send', '--wait', 'never'] },
    { args: ['messages', 'get'] },
    { args: ['messages', 'get', 'msg_1', '--watch', '--timeout', '30'] },
    { args: ['templates', 'list'] },
    { args: ['trigger', 'message.received', '--set', 'data.message.text=hi', '--set', 'data.x=1'] },
    { args: ['webhooks', 'sign', '--body', '-', '--secret', 'a', '--secret', 'b'] },
    { args: ['webhooks', 'doctor'] },
    { args: ['emulator', 'start', '--port', '4010', '--clock', 'frozen'] },
    { args: ['emulator', 'clock', 'advance', '5s', '--workspace', 'w'] },
    { args: ['emulator', 'faults', 'add', '--status', '500', '--method', 'PATCH'] },
    { args: ['emulator', 'faults', 'add', '--method', 'FETCH'] },
    { args: ['emulator', 'chaos', 'ep_1', '--duplicate', 'next:2'] },
    { args: ['emulator', 'nope'] },
    { args: ['config', 'use', 'staging'] },
    { args: ['logs', 'tail', '--status', '4xx', '--path', '/v1/messages'] },
    { args: ['--version', 'status'] },
  ])('$args parses the same defined alone as in the whole tree', async ({ args }) => {
    const whole = await parse(buildProgram(VERSION, [], recordingAction), args);
    expect(await parse(buildProgram(VERSION, args, recordingAction), args)).toEqual(whole);
  });
});

it('EXIT.api is 1, the code cli.ts writes out for an unexpected error (it imports no exit-error.ts)', () => {
  expect(EXIT.api).toBe(1);
});
