// `parley mcp` as a process, driven by raw JSON-RPC lines on its stdin: a call still running when the
// client closes stdin gets its answer before the process exits 0; SIGTERM cancels a running call
// at once, answers it with the SDK's "Request was cancelled" error and exits 130. The call that
// stays in flight is a wait_for_message on a frozen-clock emulator: it ends when the test moves
// the clock, never on a timer.

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt } from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRawMcp } from './_mcp-process';

const SANDBOX_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

let server: EmulatorServer;
const control = () => createControlClient({ baseUrl: server.baseUrl });

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await control().reset();
});

/** A `parley mcp` process fed raw lines; its stdout lines as JSON-RPC messages. */
interface McpProcess {
  child: ChildProcessWithoutNullStreams;
  send(message: object): void;
  messages(): { id?: number; result?: Record<string, unknown>; error?: Record<string, unknown> }[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

const running: McpProcess[] = [];
afterEach(() => {
  for (const { child } of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startMcp(): McpProcess {
  const raw = startRawMcp(server.baseUrl, server.sandboxKey);
  const mcp: McpProcess = { ...raw, messages: () => raw.lines().map((line) => JSON.parse(line)) };
  running.push(mcp);
  return mcp;
}

/** initialize, initialized, then (id 2) a wait_for_message on `id` until delivered. */
function askForDelivery(mcp: McpProcess, id: string): void {
  mcp.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'batch', version: '0' } },
  });
  mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  mcp.send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'wait_for_message', arguments: { id, until: 'delivered', timeout_seconds: 120 } },
  });
}

/** A template message sent with the sandbox key: queued until the frozen clock moves. */
async function queuedMessage(): Promise<string> {
  const answer = await fetch(new URL('/v1/messages', server.baseUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.sandboxKey}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({
      type: 'template',
      connection_id: SANDBOX_CONNECTION,
      to: '+33612345678',
      template: { name: 'hello_world', language: 'en' },
    }),
  });
  expect(answer.status).toBe(202);
  const message = (await answer.json()) as { id: string; status: string };
  expect(message.status).toBe('queued');
  return message.id;
}

/** How many times the emulator answered GET /v1/messages/{id}: the wait's polls. */
async function pollsOf(id: string): Promise<number> {
  const answer = await fetch(new URL('/_emulator/activity?type=request&limit=100', server.baseUrl));
  const { data } = (await answer.json()) as { data: { method?: string; path?: string }[] };
  return data.filter((item) => item.method === 'GET' && item.path === `/v1/messages/${id}`).length;
}

describe('parley mcp: stdin closed while a call runs', () => {
  it('the wait_for_message in flight still gets its answer (the delivered message), then exit 0', async () => {
    const id = await queuedMessage();
    const mcp = startMcp();
    askForDelivery(mcp, id);
    mcp.child.stdin.end();
    // The call is running: its first poll reached the emulator and saw "queued".
    await expect.poll(() => pollsOf(id), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await control().advanceClock(5_000);
    expect(await mcp.exited).toEqual({ code: 0, signal: null });
    const messages = mcp.messages();
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    const { error, result } = messages[1]!;
    expect(error).toBeUndefined();
    expect(result!.isError).toBeUndefined();
    expect(result!.structuredContent).toMatchObject({ id, status: 'delivered' });
    expect(JSON.parse((result!.content as { text: string }[])[0]!.text)).toEqual(result!.structuredContent);
  });

  it('SIGTERM during the drain cancels the call at once: the SDK cancellation error, exit 130', async () => {
    const id = await queuedMessage();
    const mcp = startMcp();
    askForDelivery(mcp, id);
    mcp.child.stdin.end();
    await expect.poll(() => pollsOf(id), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    mcp.child.kill('SIGTERM');
    expect(await mcp.exited).toEqual({ code: 130, signal: null });
    expect(mcp.messages().map((message) => message.id)).toEqual([1, 2]);
    expect(mcp.messages()[1]).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: 'Request was cancelled: parley mcp was stopped (SIGINT/SIGTERM)' },
    });
  });
});

describe('parley mcp: SIGTERM while a call runs', () => {
  it('cancels the call at once and answers it with the SDK cancellation error (-32000); exit 130; nothing else on stdout', async () => {
    const id = await queuedMessage();
    const mcp = startMcp();
    askForDelivery(mcp, id);
    await expect.poll(() => pollsOf(id), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    mcp.child.kill('SIGTERM');
    expect(await mcp.exited).toEqual({ code: 130, signal: null });
    const messages = mcp.messages();
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    expect(messages[1]).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: 'Request was cancelled: parley mcp was stopped (SIGINT/SIGTERM)' },
    });
  });
});
