import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CLI_PATH, cliEnv } from '@parley/test-utils';

/** A `parley mcp` process fed raw JSON-RPC lines on stdin, against the API at `baseUrl`. */
export interface RawMcpProcess {
  child: ChildProcessWithoutNullStreams;
  /** Writes one JSON-RPC message as a line. */
  send(message: object): void;
  /** The non-empty lines written to stdout so far. */
  lines(): string[];
  stderr(): string;
  /** How the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `parley mcp` (with `args`) on `baseUrl` with `apiKey`, no config file. */
export function startRawMcp(baseUrl: string, apiKey: string, args: string[] = []): RawMcpProcess {
  const child = spawn(process.execPath, [CLI_PATH, 'mcp', ...args], {
    env: cliEnv({ XDG_CONFIG_HOME: '/nonexistent', PARLEY_API_KEY: apiKey, PARLEY_BASE_URL: baseUrl }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return {
    child,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    lines: () => stdout.split('\n').filter(Boolean),
    stderr: () => stderr,
    exited: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal }))),
  };
}
