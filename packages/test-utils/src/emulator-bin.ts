import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
/** The built bin, exactly what `pnpm emulator` and users run. */
export const BIN = `${packageDir}dist/bin.js`;

/** Builds the package once if `dist/` is missing (the root `pnpm test` builds before testing). */
export function ensureBuilt(): void {
  if (existsSync(BIN)) return;
  execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A running bin and its ready line. */
export interface RunningBin {
  child: ChildProcess;
  ready: { ready: true; base_url: string; console_url: string; control_url: string; sandbox_key: string };
  exited: Promise<number | null>;
}

/** Starts the bin with `--json --port 0` plus `args` and waits for its ready line. */
export async function startBin(args: readonly string[]): Promise<RunningBin> {
  ensureBuilt();
  const child = spawn(process.execPath, [BIN, '--json', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<RunningBin['ready']>((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.stderr!.on('data', (chunk) => {
      errors += chunk;
    });
    child.once('exit', (code) => reject(new Error(`bin exited with ${code} before ready: ${errors}`)));
  });
  return { child, ready, exited };
}

/** Runs the bin to completion and returns its exit code and output. */
export function runBin(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  ensureBuilt();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
