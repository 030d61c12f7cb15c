import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type NodeProcess, type ProcessResult, startNodeProcess } from './node-process';

/** The built CLI; tests of the real process need `pnpm --filter @parley/cli build` first. */
export const CLI_PATH = fileURLToPath(new URL('../../cli/dist/cli.js', import.meta.url));

/** Fails with the command to run when the CLI has not been built. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: build the CLI first with \`pnpm --filter @parley/cli build\``);
  }
}

/** A finished CLI process. */
export type CliResult = ProcessResult;

/** A running CLI process, with helpers to wait for output. */
export type CliProcess = NodeProcess;

/**
 * The environment of a CLI run: only what the test gives plus PATH, HOME and a config home, so
 * the developer's own PARLEY_* variables and profiles never leak into a test.
 */
export function cliEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) clean[name] = value;
  return clean;
}

/** Starts `node dist/cli.js …args` with a clean environment; stdin gets `stdin`, or is empty. */
export function startCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
  stdin = '',
): CliProcess {
  assertCliBuilt();
  return startNodeProcess(CLI_PATH, args, { env: cliEnv(env), stdin });
}

/**
 * Runs the CLI to completion.
 *
 * @example
 * const { code, stdout } = await runCli(['status', '--json'], { PARLEY_API_KEY: key, PARLEY_BASE_URL: baseUrl });
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
  stdin?: string,
): Promise<CliResult> {
  return startCli(args, env, stdin).exited;
}
