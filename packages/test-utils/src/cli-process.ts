import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built CLI; tests of the real process need `pnpm --filter @parley/cli build` first. */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Fails with the command to run when the CLI has not been built. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: build the CLI first with \`pnpm --filter @parley/cli build\``);
  }
}

/** A finished CLI process. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a CLI run: only what the test gives plus PATH, HOME and a config home, so
 * the developer's own PARLEY_* variables and profiles never leak into a test.
 */
export function cliEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) clean[name] = value;
  return clean;
}

/** A running CLI process, with helpers to wait for output. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout+stderr match `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp | string): Promise<void>;
  exited: Promise<CliResult>;
}

/** Starts `node dist/cli.js …args` with a clean environment. */
export function startCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
  stdin?: string,
): CliProcess {
  assertCliBuilt();
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env: cliEnv(env), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of watchers) watcher();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    notify();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    notify();
  });
  if (stdin !== undefined) child.stdin.end(stdin);
  else child.stdin.end();
  const exited = new Promise<CliResult>((resolve) => {
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
      notify();
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const output = stdout + stderr;
          if (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output)) {
            watchers.delete(check);
            resolve();
          } else if (ended || child.exitCode !== null) {
            watchers.delete(check);
            reject(new Error(`the CLI exited before printing ${pattern}:\n${stdout}\n${stderr}`));
          }
        };
        watchers.add(check);
        check();
      }),
  };
}

/** Runs the CLI to completion. */
export function runCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
  stdin?: string,
): Promise<CliResult> {
  return startCli(args, env, stdin).exited;
}
