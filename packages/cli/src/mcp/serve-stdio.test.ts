import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InFlightCalls } from './in-flight-calls';
import { DRAIN_MS, drainTimeoutMessage, INTERRUPTED_MESSAGE, type StdioEnd, serveStdio } from './serve-stdio';

// A server with one tool, `hold`, that answers when the test releases it; raw JSON-RPC lines on
// in-memory stdio. Only setTimeout is faked: the drain bound moves with the test, never by waiting.

interface Rig {
  stdin: PassThrough;
  send(message: object): void;
  answers(): { id?: unknown; result?: { content?: { text: string }[] }; error?: unknown }[];
  served: Promise<StdioEnd>;
  abort: AbortController;
  /** Resolves the `hold` calls started so far, in order. */
  release(text: string): void;
  started: () => number;
}

/** `input`: all of stdin, read and ended before serving starts (a batch client's pipe). */
function rig(input?: string): Rig {
  const server = new McpServer({ name: 'test', version: '0.0.0' });
  const calls = new InFlightCalls();
  const holds: ((text: string) => void)[] = [];
  server.registerTool(
    'hold',
    { description: 'answers when released' },
    calls.wrap(async () => {
      const text = await new Promise<string>((resolve) => holds.push(resolve));
      return { content: [{ type: 'text' as const, text }] };
    }),
  );
  const stdin = new PassThrough();
  if (input !== undefined) {
    stdin.write(input);
    stdin.end();
  }
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const abort = new AbortController();
  const served = serveStdio(server, calls, { signal: abort.signal, stdin, stdout });
  return {
    stdin,
    send: (message) => stdin.write(`${JSON.stringify(message)}\n`),
    answers: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    served,
    abort,
    release: (text) => {
      for (const resolve of holds.splice(0)) resolve(text);
    },
    started: () => holds.length,
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};
const hold = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'hold', arguments: {} },
});
/** Every callback queued so far, and the promise steps after them, have run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Waits, in event-loop turns (vi.waitUntil would move the fake clock), until `count` calls have started. */
async function startedCalls(started: () => number, count: number): Promise<void> {
  for (let turn = 0; started() < count; turn++) {
    if (turn === 1000) throw new Error(`${started()} of ${count} calls started`);
    await settle();
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('serveStdio: stdin closed', () => {
  it('with nothing running, ends at once: drained', async () => {
    const { send, stdin, served, answers } = rig();
    send(initialize);
    stdin.end();
    expect(await served).toBe('drained');
    expect(answers().map((answer) => answer.id)).toEqual([1]);
  });

  it('a call sent in the same chunk as the end of stdin is answered; the last answer is out before it ends', async () => {
    const { stdin, served, answers, release, started } = rig();
    stdin.end(`${JSON.stringify(initialize)}\n${JSON.stringify(hold(2))}\n`);
    await startedCalls(started, 1);
    // The server has had its turns: a close now would drop the answer.
    await settle();
    await settle();
    release('done');
    expect(await served).toBe('drained');
    expect(answers().map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers()[1]!.result!.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('a stdin already ended when serving starts: its requests reach their handlers after its end, and are answered', async () => {
    // Node emits the data and, in the same tick, the end: the handlers start in promise steps after.
    const { served, answers, release, started } = rig(
      `${JSON.stringify(initialize)}\n${JSON.stringify(hold(2))}\n`,
    );
    await startedCalls(started, 1);
    // The server has had its turns: a close now would drop the answer.
    await settle();
    await settle();
    release('done');
    expect(await served).toBe('drained');
    expect(answers().map((answer) => answer.id)).toEqual([1, 2]);
  });

  it(`a call that finishes ${DRAIN_MS - 1} ms after the end of stdin gets its own answer`, async () => {
    const { send, stdin, served, answers, release, started } = rig();
    send(initialize);
    send(hold(2));
    stdin.end();
    await startedCalls(started, 1);
    await settle();
    vi.advanceTimersByTime(DRAIN_MS - 1);
    await settle();
    expect(answers().map((answer) => answer.id)).toEqual([1]);
    release('in time');
    expect(await served).toBe('drained');
    expect(answers()[1]).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'in time' }] },
    });
  });

  it(`a call still running ${DRAIN_MS} ms after the end of stdin is answered with the cancelled-request error, once`, async () => {
    const { send, stdin, served, answers, release, started } = rig();
    send(initialize);
    send(hold(2));
    send(hold(3));
    stdin.end();
    await startedCalls(started, 2);
    await settle();
    vi.advanceTimersByTime(DRAIN_MS);
    expect(await served).toBe('drained');
    const error = { code: -32000, message: drainTimeoutMessage(DRAIN_MS) };
    expect(answers().slice(1)).toEqual([
      { jsonrpc: '2.0', id: 2, error },
      { jsonrpc: '2.0', id: 3, error },
    ]);
    expect(error.message).toBe(
      'Request was cancelled: stdin was closed and the call did not finish within 30 s',
    );
    // The handler's late result is dropped: the client had its answer.
    release('late');
    await settle();
    expect(answers()).toHaveLength(3);
  });
});

describe('serveStdio: a signal', () => {
  it('cancels every running call at once, each answered with the cancelled-request error: interrupted', async () => {
    const { send, served, answers, release, started, abort } = rig();
    send(initialize);
    send(hold(2));
    send(hold('two' as unknown as number));
    await startedCalls(started, 2);
    abort.abort();
    expect(await served).toBe('interrupted');
    const error = { code: -32000, message: INTERRUPTED_MESSAGE };
    expect(answers().slice(1)).toEqual([
      { jsonrpc: '2.0', id: 2, error },
      { jsonrpc: '2.0', id: 'two', error },
    ]);
    release('late');
    await settle();
    expect(answers()).toHaveLength(3);
  });

  it('during the drain, cancels at once without waiting for the bound', async () => {
    const { send, stdin, served, answers, started, abort } = rig();
    send(initialize);
    send(hold(2));
    stdin.end();
    await startedCalls(started, 1);
    await settle();
    abort.abort();
    expect(await served).toBe('interrupted');
    expect(answers()[1]).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: INTERRUPTED_MESSAGE },
    });
  });
});
