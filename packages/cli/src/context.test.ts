import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContext, type OutputStream } from './context';

const stream = (isTTY: boolean): OutputStream => ({ isTTY, write: () => true });

/** process.stdin as a getter that counts its reads and answers the given isTTY. */
function spyStdin(isTTY: boolean) {
  return vi.spyOn(process, 'stdin', 'get').mockReturnValue({ isTTY } as typeof process.stdin);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createContext and process.stdin', () => {
  it('builds a context without reading process.stdin (creating it costs every start)', () => {
    const stdin = spyStdin(true);
    const context = createContext({ stdout: stream(true), stderr: stream(true), json: true, env: {} });
    expect(context.json).toBe(true);
    expect(stdin).toHaveBeenCalledTimes(0);
  });

  it('reads process.stdin once, when a command asks whether it may prompt', () => {
    const stdin = spyStdin(true);
    const context = createContext({ stdout: stream(true), stderr: stream(true), env: {} });
    expect(context.interactive).toBe(true);
    expect(context.interactive).toBe(true);
    expect(stdin).toHaveBeenCalledTimes(1);
  });

  it.each([
    { stdoutTTY: true, stdinTTY: true, input: undefined, interactive: true, stdinReads: 1 },
    { stdoutTTY: true, stdinTTY: false, input: undefined, interactive: false, stdinReads: 1 },
    { stdoutTTY: true, stdinTTY: true, input: true, interactive: true, stdinReads: 1 },
    { stdoutTTY: false, stdinTTY: true, input: undefined, interactive: false, stdinReads: 0 },
    { stdoutTTY: true, stdinTTY: true, input: false, interactive: false, stdinReads: 0 },
  ])('stdout TTY $stdoutTTY, stdin TTY $stdinTTY, input $input: interactive $interactive', (row) => {
    const stdin = spyStdin(row.stdinTTY);
    const context = createContext({
      stdout: stream(row.stdoutTTY),
      stderr: stream(false),
      env: {},
      ...(row.input === undefined ? {} : { input: row.input }),
    });
    expect(context.interactive).toBe(row.interactive);
    expect(stdin).toHaveBeenCalledTimes(row.stdinReads);
  });

  it.each([true, false])('interactive: %s given is kept and never looks at stdin', (interactive) => {
    const stdin = spyStdin(!interactive);
    const context = createContext({
      stdout: stream(!interactive),
      stderr: stream(false),
      env: {},
      interactive,
    });
    expect(context.interactive).toBe(interactive);
    expect(stdin).toHaveBeenCalledTimes(0);
  });
});
