import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built emulator bin, exactly what users run (`pnpm test` builds before the hardening suite). */
export const EMULATOR_BIN = fileURLToPath(new URL('../../emulator/dist/bin.js', import.meta.url));

/** A running bin, with everything it printed so far. */
export interface RunningEmulatorBin {
  child: ChildProcess;
  ready: { base_url: string; control_url: string; console_url: string; sandbox_key: string };
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `parley-emulator --json --port 0 …args` and waits for its ready line. */
export async function startEmulatorBin(args: readonly string[]): Promise<RunningEmulatorBin> {
  const child = spawn(process.execPath, [EMULATOR_BIN, '--json', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const ready = await new Promise<RunningEmulatorBin['ready']>((resolve, reject) => {
    const onData = () => {
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"ready"'));
      if (line) resolve(JSON.parse(line));
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}: ${output}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, ready, output: () => output, stop };
}
