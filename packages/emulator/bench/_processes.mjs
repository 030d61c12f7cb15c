import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// Server and load generator each on their own core (Linux with taskset), so they do not steal
// from each other; elsewhere they share and the ratios are noisier.
const pinning = (() => {
  if (process.platform !== 'linux') return false;
  try {
    // Core 1 must exist for the servers (a one-core runner shares instead).
    execFileSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Whether servers run on core 1 and the load generator on core 0. */
export const pinnedCores = pinning;

/**
 * Starts a server child that prints a JSON ready line with `base_url`; resolves with it, when the
 * child was spawned (`started`) and when its ready line arrived (`readyAt`), both `performance.now()`,
 * and the CPU time its threads had used by then (`readyCpuNs`, {@link cpuNs}; the child is stopped
 * while it is read, so what it does after its ready line is not counted).
 */
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
    const onData = (chunk) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (!line) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      const readyAt = performance.now();
      child.kill('SIGSTOP');
      const readyCpuNs = cpuNs(child.pid);
      child.kill('SIGCONT');
      resolve({ child, ready: JSON.parse(line), started, readyAt, readyCpuNs });
    };
    child.stdout.on('data', onData);
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

/**
 * Nanoseconds a process's threads have run on a CPU (Linux `/proc/PID/task/TID/schedstat`), or
 * undefined elsewhere. Unlike wall time, it does not grow while a loaded machine runs something
 * else: on one core the server saturates, requests ÷ CPU seconds is its requests per second.
 */
export function cpuNs(pid) {
  try {
    let total = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      total += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    }
    return total;
  } catch {
    return undefined;
  }
}
