import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type NodeProcess, type ProcessResult, startNodeProcess } from './node-process';

const emulatorDir = fileURLToPath(new URL('../../emulator/', import.meta.url));
/** The emulator's built bin, exactly what `pnpm emulator` and users run. */
export const EMULATOR_BIN = `${emulatorDir}dist/bin.js`;

/** Builds the emulator once if its `dist/` is missing (the root `pnpm test` builds before testing). */
export function ensureEmulatorBuilt(): void {
  if (existsSync(EMULATOR_BIN)) return;
  execFileSync('pnpm', ['exec', 'tsup'], { cwd: emulatorDir, stdio: 'ignore' });
}

/** The `--json` ready line of a started bin. */
export interface ReadyLine {
  ready: true;
  base_url: string;
  console_url: string;
  control_url: string;
  sandbox_key: string;
}

/** A running emulator bin and its ready line. */
export interface RunningEmulatorBin {
  child: NodeProcess['child'];
  ready: ReadyLine;
  /** The exit code, once the process has ended. */
  exited: Promise<number | null>;
  /** Everything it printed so far, stdout then stderr. */
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

const started = new Set<NodeProcess['child']>();

/** SIGKILLs every bin started by this file that is still running: `afterEach(stopEmulatorBins)`. */
export function stopEmulatorBins(): void {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  started.clear();
}

function start(args: readonly string[]): NodeProcess {
  ensureEmulatorBuilt();
  const running = startNodeProcess(EMULATOR_BIN, args);
  started.add(running.child);
  return running;
}

/**
 * Starts the bin with `--json --port 0` plus `args` and waits for its ready line.
 *
 * @example
 * const { ready } = await startEmulatorBin(['--clock', 'frozen']);
 * const control = createControlClient({ baseUrl: ready.base_url }); // from @parley/emulator/control
 * await control.health();
 */
export async function startEmulatorBin(args: readonly string[]): Promise<RunningEmulatorBin> {
  const running = start(['--json', '--port', '0', ...args]);
  const readyLine = () =>
    running
      .stdout()
      .split('\n')
      .find((line) => line.startsWith('{"ready"'));
  await running.waitFor(/^\{"ready".*\n/m, 'stdout').catch(async () => {
    const { code, stderr } = await running.exited;
    throw new Error(`bin exited with ${code} before ready: ${stderr}`);
  });
  const exited = running.exited.then((result) => result.code);
  return {
    child: running.child,
    ready: JSON.parse(readyLine()!) as ReadyLine,
    exited,
    output: () => running.stdout() + running.stderr(),
    stop: async () => {
      if (running.child.exitCode !== null) return;
      running.child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs the bin to completion and returns its exit code and output. */
export function runEmulatorBin(args: readonly string[]): Promise<ProcessResult> {
  return start(args).exited;
}
