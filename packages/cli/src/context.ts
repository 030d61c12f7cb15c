import type { ChalkInstance } from 'chalk';
import { plainStyle } from './output/plain-style';

/** Where a command writes: stdout for data, stderr for progress and messages. */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Everything a command needs from its surroundings, so a test can run it as a plain function:
 * streams, style, the environment, and a signal that ends long-running commands.
 */
export interface CommandContext {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Colours and emphasis; level 0 (plain text) under NO_COLOR, `--no-color` or a non-TTY. */
  style: ChalkInstance;
  /** `--json`: stdout carries only data, human messages go to stderr or nowhere. */
  json: boolean;
  /** Prompts are allowed: stdin and stdout are terminals and `--no-input` is not set. */
  interactive: boolean;
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT/SIGTERM for the commands that keep running (listen, --wait, --watch). */
  signal: AbortSignal;
  /** Replaces the network for the SDK and control-API calls (tests: an in-process emulator's `fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** `--verbose`: the SDK logs every attempt to stderr (as PARLEY_LOG=debug does). */
  verbose?: boolean;
}

/** Options that describe the context; every field has a default taken from the process. */
export interface ContextOptions extends Partial<Omit<CommandContext, 'style'>> {
  /** Default: plain text (see `createStyle` for chalk with colour detection). */
  style?: ChalkInstance;
  input?: boolean;
}

/**
 * Builds a {@link CommandContext}. Without options it describes this process; tests pass
 * their own streams, environment and `fetch`. This module never loads chalk by itself.
 */
export function createContext(options: ContextOptions = {}): CommandContext {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  let interactive = options.interactive;
  const context: CommandContext = {
    stdout,
    stderr,
    style: options.style ?? plainStyle(),
    json: options.json ?? false,
    // Node builds process.stdin on first use (a stream and its modules: milliseconds of every start,
    // tens on a busy machine), so it is looked at only when a command asks whether it may prompt.
    get interactive() {
      interactive ??= options.input !== false && Boolean(stdout.isTTY) && Boolean(process.stdin.isTTY);
      return interactive;
    },
    env,
    signal: options.signal ?? new AbortController().signal,
  };
  if (options.fetch) context.fetch = options.fetch;
  if (options.verbose) context.verbose = true;
  return context;
}
