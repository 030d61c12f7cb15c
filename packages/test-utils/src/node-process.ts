import { type ChildProcess, spawn } from 'node:child_process';

/** A finished process. */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running `node <script>` process, with what it printed so far. */
export interface NodeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves once the output matches `pattern` (`stream`: stdout and stderr together, or stdout
   * alone); rejects if the process ends first.
   */
  waitFor(pattern: RegExp | string, stream?: 'all' | 'stdout'): Promise<void>;
  /** Resolves once the process has exited and its output streams are closed. */
  exited: Promise<ProcessResult>;
}

/** Options of {@link startNodeProcess}. */
export interface NodeProcessOptions {
  /** The whole environment of the process (default: this process's). */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is empty. */
  stdin?: string;
}

/** The processes {@link startNodeProcess} started that have not exited yet. */
const running = new Set<ChildProcess>();

/**
 * Kills every process {@link startNodeProcess} started that is still running (`vitest.setup.ts`
 * calls it after each test file). A test that times out or fails before its own kill otherwise
 * left its process (an emulator, `parley listen`) running after the whole run: vitest ends a
 * worker without an `exit` event, and six `parley listen` outlived a timed-out hardening run.
 */
export function stopStartedProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * Starts `node script …args` with piped output.
 *
 * @example
 * const server = startNodeProcess(EMULATOR_BIN, ['--port', '0']);
 * await server.waitFor('ready');
 */
export function startNodeProcess(
  script: string,
  args: readonly string[],
  options: NodeProcessOptions = {},
): NodeProcess {
  const child = spawn(process.execPath, [script, ...args], {
    ...(options.env ? { env: options.env } : {}),
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of watchers) watcher();
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    notify();
  });
  if (options.stdin !== undefined) {
    // A process may exit without reading its stdin (a CLI refusing its flags): the write then
    // fails with EPIPE, which is the process's choice, not a failure of the test that started it.
    child.stdin!.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') throw error;
    });
    child.stdin!.end(options.stdin);
  }
  let ended = false;
  const exited = new Promise<ProcessResult>((resolve) => {
    child.on('close', (code) => {
      ended = true;
      resolve({ code, stdout, stderr });
      notify();
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor: (pattern, stream = 'all') =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const output = stream === 'stdout' ? stdout : stdout + stderr;
          if (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output)) {
            watchers.delete(check);
            resolve();
          } else if (ended || child.exitCode !== null) {
            watchers.delete(check);
            reject(new Error(`${script} exited before printing ${pattern}:\n${stdout}\n${stderr}`));
          }
        };
        watchers.add(check);
        check();
      }),
  };
}
