import { execFileSync, spawn } from 'node:child_process';

// Server and load generator each on their own core (Linux with taskset), so they do not steal
// from each other; elsewhere they share and the ratios are noisier.
const pinning = (() => {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Whether servers run on core 1 and the load generator on core 0. */
export const pinnedCores = pinning;

/** Starts a server child that prints a JSON ready line with `base_url`; resolves with it and the time it took. */
export function startServer(args, env = {}) {
  const started = performance.now();
  // Children inherit this process's affinity (core 0): servers are moved to core 1 explicitly.
  const command = pinning ? ['taskset', '-c', '1', process.execPath] : [process.execPath];
  const child = spawn(command[0], [...command.slice(1), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve({ child, ready: JSON.parse(line), started });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** Stops a child and waits for it. */
export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** Median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
