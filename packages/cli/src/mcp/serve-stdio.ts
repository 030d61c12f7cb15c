import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, type JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import type { InFlightCalls } from './in-flight-calls';

/** How long the calls still running when stdin closes may take before they are cancelled. */
export const DRAIN_MS = 30_000;
// Writing the last answers may not hold the exit forever (a client that stopped reading stdout).
const FLUSH_MS = 5_000;

/** The answer of a call cut off by SIGINT/SIGTERM. */
export const INTERRUPTED_MESSAGE = 'Request was cancelled: parley mcp was stopped (SIGINT/SIGTERM)';

/** The answer of a call still running {@link DRAIN_MS} after stdin closed. */
export function drainTimeoutMessage(drainMs: number): string {
  return `Request was cancelled: stdin was closed and the call did not finish within ${drainMs / 1000} s`;
}

/**
 * How serving ended: stdin closed and every call was answered (`drained`, also when the drain
 * bound cancelled some), a signal cancelled the calls (`interrupted`), or the transport closed
 * on its own (`closed`).
 */
export type StdioEnd = 'drained' | 'interrupted' | 'closed';

/** Where {@link serveStdio} reads and writes, and what stops it. */
export interface ServeStdioOptions {
  /** Aborted on SIGINT/SIGTERM: running calls are cancelled at once. */
  signal: AbortSignal;
  stdin?: Readable;
  stdout?: Writable;
  /** Default {@link DRAIN_MS}. */
  drainMs?: number;
}

/**
 * Serves `server` on stdio until stdin closes or `signal` aborts. When stdin closes, every request
 * already received is let finish and answered (each tool call has its own timeout; past `drainMs`
 * the rest are cancelled); a signal cancels them at once. A cancelled call is answered with the
 * SDK's error for a cancelled request (`-32000`, "Request was cancelled: …") before the server
 * closes, which drops the late answer of its handler. Settles once the last answer is written.
 */
export async function serveStdio(
  server: McpServer,
  calls: InFlightCalls,
  { signal, stdin = process.stdin, stdout = process.stdout, drainMs = DRAIN_MS }: ServeStdioOptions,
): Promise<StdioEnd> {
  const transport = new StdioServerTransport(stdin, stdout);
  let settle!: (end: StdioEnd) => void;
  const ended = new Promise<StdioEnd>((resolve) => {
    settle = resolve;
  });
  let stopping = false;
  let drainTimer: NodeJS.Timeout | undefined;
  // Synchronous from the answers to the close: a handler that settles in between would be
  // answered twice.
  const cancelAndClose = (message: string, end: StdioEnd) => {
    if (stopping) return;
    stopping = true;
    for (const id of calls.ids()) {
      const answer: JSONRPCErrorResponse = {
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.ConnectionClosed, message },
      };
      transport.send(answer).catch(() => {});
    }
    settle(end);
    server.close().catch(() => {});
  };
  const closeDrained = () => {
    if (stopping) return;
    stopping = true;
    settle('drained');
    server.close().catch(() => {});
  };
  const drain = () => {
    if (stopping) return;
    drainTimer = setTimeout(() => cancelAndClose(drainTimeoutMessage(drainMs), 'drained'), drainMs);
    // Checked once the promise steps queued so far have run: the requests of stdin's last chunk
    // reach their handlers in promise steps that may follow 'end', and the answer of a call is
    // sent a few promise steps after its handler settles.
    const closeWhenIdle = () => {
      void calls.idle().then(() =>
        setImmediate(() => {
          if (calls.size > 0) return closeWhenIdle();
          closeDrained();
        }),
      );
    };
    closeWhenIdle();
  };
  const interrupt = () => cancelAndClose(INTERRUPTED_MESSAGE, 'interrupted');
  transport.onclose = () => settle('closed');
  if (signal.aborted) return 'interrupted';
  signal.addEventListener('abort', interrupt, { once: true });
  stdin.once('end', drain);
  try {
    await server.connect(transport);
    return await ended;
  } finally {
    clearTimeout(drainTimer);
    signal.removeEventListener('abort', interrupt);
    stdin.off('end', drain);
    await flushed(stdout);
  }
}

/** Settles once what was written to `stream` before is out (or failed), at most {@link FLUSH_MS}. */
function flushed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_MS);
    stream.write('', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
