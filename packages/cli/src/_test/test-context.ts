import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { type CommandContext, createContext, type OutputStream } from '../context';

export { closedPort } from '@parley/test-utils';

/** An output stream that keeps what was written. */
export interface CapturedStream extends OutputStream {
  text(): string;
}

function capture(isTTY = false): CapturedStream {
  let written = '';
  return {
    isTTY,
    write(text: string) {
      written += text;
      return true;
    },
    text: () => written,
  };
}

/** A context for running a command as a function: captured streams, no colour, no prompts. */
export function testContext(
  overrides: Partial<Omit<CommandContext, 'stdout' | 'stderr' | 'style'>> = {},
): CommandContext & { stdout: CapturedStream; stderr: CapturedStream } {
  const stdout = capture();
  const stderr = capture();
  return {
    ...createContext({
      stdout,
      stderr,
      style: new Chalk({ level: 0 }),
      interactive: false,
      env: {},
      ...overrides,
    }),
    stdout,
    stderr,
  };
}

/** A fresh XDG_CONFIG_HOME for one test, removed by the returned cleanup. */
export async function temporaryConfigHome(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-cli-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
