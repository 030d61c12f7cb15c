// `parley mcp` as a process, driven by the MCP SDK's own client over stdio against a listening
// emulator with a frozen clock: the tool and resource lists, every tool, schema errors, the API's
// errors, live keys refused, no secret in any result after its creation, and a scripted agent.

import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { verifyWebhook, type WebhookEvent } from '@parley/sdk';
import {
  assertCliBuilt,
  CLI_PATH,
  cliEnv,
  closedPort,
  runCli,
  startReceiver,
  type TestReceiver,
} from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRawMcp } from './_mcp-process';

const SANDBOX_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: EmulatorServer;
let receiver: TestReceiver;
const control = () => createControlClient({ baseUrl: server.baseUrl });

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

/** A `parley mcp` process and the MCP client connected to it; every result it got, as text. */
interface Session {
  client: Client;
  seen: string[];
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The structured content of a call that must succeed. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The `{ code, message, request_id }` of a call that must fail with the API's error. */
  fails(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const sessions: Session[] = [];

async function openSession(
  env: Record<string, string | undefined> = {},
  args: string[] = [],
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp', ...args],
    env: cliEnv({
      XDG_CONFIG_HOME: '/nonexistent',
      PARLEY_API_KEY: server.sandboxKey,
      PARLEY_BASE_URL: server.baseUrl,
      ...env,
    }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'parley-e2e', version: '0.0.0' });
  await client.connect(transport);
  const seen: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    seen.push(JSON.stringify(result));
    return result;
  };
  const session: Session = {
    client,
    seen,
    stderr: () => stderr,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      // The text is the same data, for clients that read only text.
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
      return result.structuredContent as Record<string, unknown>;
    },
    async fails(name, args) {
      const result = await call(name, args);
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      return JSON.parse((result.content[0] as { text: string }).text).error;
    },
  };
  sessions.push(session);
  return session;
}

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.client.close();
});
beforeEach(async () => {
  await control().reset();
  receiver.requests.length = 0;
});

/** The /v1 requests the emulator answered since its last reset, oldest first. */
async function v1Requests(): Promise<unknown[]> {
  const answer = await fetch(new URL('/_emulator/activity?type=request&limit=100', server.baseUrl));
  return ((await answer.json()) as { data: unknown[] }).data.reverse();
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const hello = {
  type: 'template',
  connection_id: SANDBOX_CONNECTION,
  template: { name: 'hello_world', language: 'en' },
};

describe('parley mcp: what it offers', () => {
  it('lists every tool with an object input schema, the docs and OpenAPI resources, the magic numbers and two prompts', async () => {
    const { client } = await openSession();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_status',
      'send_message',
      'get_message',
      'wait_for_message',
      'list_connections',
      'list_templates',
      'trigger_sandbox_event',
      'advance_clock',
      'reset',
      'list_deliveries',
      'replay_delivery',
      'create_endpoint',
      'add_fault',
      'clear_faults',
      'set_webhook_chaos',
      'list_magic_numbers',
      'tail_activity',
      'create_workspace',
      'doctor_webhook_receiver',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    const send = tools.find((tool) => tool.name === 'send_message')!;
    expect(send.inputSchema.required).toEqual(['type', 'connection_id', 'to']);
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'parley://docs/cli.md',
        'parley://docs/emulator.md',
        'parley://docs/mcp.md',
        'parley://openapi/openapi.yaml',
        'parley://openapi/emulator-api.yaml',
        'parley://emulator/magic-numbers',
      ]),
    );
    const page = await client.readResource({ uri: 'parley://docs/mcp.md' });
    expect((page.contents[0] as { text: string }).text).toMatch(/^# /);
    const openapi = await client.readResource({ uri: 'parley://openapi/openapi.yaml' });
    expect((openapi.contents[0] as { text: string }).text).toMatch(/^openapi: 3\./m);
    const magic = await client.readResource({ uri: 'parley://emulator/magic-numbers' });
    const numbers = JSON.parse((magic.contents[0] as { text: string }).text) as { number: string }[];
    expect(numbers.length).toBeGreaterThan(3);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['test_webhook_receiver', 'walk_message_statuses']);
    const prompt = await client.getPrompt({
      name: 'test_webhook_receiver',
      arguments: { url: receiver.url },
    });
    expect(JSON.stringify(prompt.messages)).toContain(`create_endpoint with url ${receiver.url}`);
  });

  it('against a server that is no emulator, offers no emulator tool; on loopback with nothing there yet, offers them', async () => {
    // A server that answers 200 "ok" to everything: no control API there, so no emulator tool.
    const { client } = await openSession({ PARLEY_BASE_URL: receiver.url.replace(/\/hooks$/, '/v1') });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('send_message');
    expect(names).toContain('doctor_webhook_receiver');
    expect(names).not.toContain('advance_clock');
    expect(names).not.toContain('tail_activity');
    const early = await openSession({ PARLEY_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` });
    const offered = (await early.client.listTools()).tools.map((tool) => tool.name);
    expect(offered).toContain('advance_clock');
    expect((await early.fails('advance_clock', { duration: '1s' })).code).toBe('network_error');
  });
});

describe('parley mcp: stdout is the protocol alone', () => {
  it('every line on stdout is a JSON-RPC message; the start-up line and the SDK log go to stderr; stdin closed ends it with 0', async () => {
    const {
      child,
      send,
      lines: answers,
      stderr: errors,
      exited: ended,
    } = startRawMcp(server.baseUrl, server.sandboxKey, ['--verbose']);
    const exited = ended.then(({ code }) => code);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await expect.poll(answers, { timeout: 15_000 }).toHaveLength(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_status', arguments: {} } });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_message', arguments: { id: 'nope' } },
    });
    await expect.poll(answers, { timeout: 15_000 }).toHaveLength(3);
    child.stdin.end();
    expect(await exited).toBe(0);
    const stderr = errors();
    const messages = answers().map((line) => JSON.parse(line));
    expect(messages.map((message) => [message.jsonrpc, message.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
    ]);
    const { version } = JSON.parse(readFileSync(new URL('../../cli/package.json', import.meta.url), 'utf8'));
    expect(messages[0].result.serverInfo).toEqual({ name: 'parley', title: 'Parley', version });
    expect(messages[2].result.isError).toBe(true);
    // --verbose: the SDK's request log, on stderr, without the key.
    expect(stderr).toMatch(
      /^parley mcp: serving http:\/\/127\.0\.0\.1:\d+\/v1 \(key from PARLEY_API_KEY, emulator tools on\) on stdio$/m,
    );
    expect(stderr).toMatch(/GET .*\/v1\/status/);
    expect(stderr).not.toContain(server.sandboxKey);
  });
});

describe('parley mcp: the API tools', () => {
  it('send_message → advance_clock 5s → get_message is delivered; the Idempotency-Key is returned and repeats the send', async () => {
    const session = await openSession();
    const sent = await session.ok('send_message', { ...hello, to: '+33612345678' });
    const message = sent.message as { id: string; status: string };
    expect(message.status).toBe('queued');
    expect(sent.idempotency_key).toMatch(UUID);
    const advanced = await session.ok('advance_clock', { duration: '5s' });
    expect(advanced.advanced_ms).toBe(5000);
    expect((await session.ok('get_message', { id: message.id })).status).toBe('delivered');
    expect((await session.ok('wait_for_message', { id: message.id, until: 'delivered' })).status).toBe(
      'delivered',
    );
    // The same key and body: the first answer again, no second message.
    const again = await session.ok('send_message', {
      ...hello,
      to: '+33612345678',
      idempotency_key: sent.idempotency_key,
    });
    expect((again.message as { id: string }).id).toBe(message.id);
    expect(again.idempotency_key).toBe(sent.idempotency_key);
    expect((await control().listMessages()).data).toHaveLength(1);
  });

  it('get_status, list_connections and list_templates answer as the API does', async () => {
    const session = await openSession();
    const status = await session.ok('get_status');
    expect(status.environment).toBe('sandbox');
    expect(status.application_id).toMatch(UUID);
    const connections = await session.ok('list_connections', { limit: 1 });
    expect(connections).toMatchObject({ object: 'list', has_more: true });
    expect((connections.data as { id: string }[]).map((connection) => connection.id)).toEqual([
      SANDBOX_CONNECTION,
    ]);
    const templates = await session.ok('list_templates', { connection_id: SANDBOX_CONNECTION, limit: 100 });
    expect((templates.data as { name: string }[]).map((template) => template.name)).toContain('hello_world');
  });

  it('errors are the API error fields {code, message, request_id}, never a stack', async () => {
    const session = await openSession();
    const missing = '00000000-0000-4000-8000-000000000000';
    const error = await session.fails('get_message', { id: missing });
    expect(error).toEqual({
      code: 'not_found',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/),
      details: expect.any(Object),
    });
    const closed = await session.fails('list_templates', { connection_id: missing });
    expect(closed.code).toBe('not_found');
    const chaos = await session.fails('set_webhook_chaos', { endpoint_id: missing, duplicate: { next: 1 } });
    expect(chaos).toMatchObject({ code: 'not_found', request_id: expect.stringMatching(/^req_/) });
    for (const text of session.seen) expect(text).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+/);
  });

  it('bad input is answered by the schema before any call, naming the field', async () => {
    const session = await openSession();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['send_message', { ...hello, to: '0612345678' }, / at to$/m],
      ['send_message', { type: 'text', connection_id: SANDBOX_CONNECTION, to: '+33612345678' }, / at text$/m],
      ['send_message', { ...hello, to: '+33612345678', text: 'both' }, / at text$/m],
      ['get_message', {}, / at id$/m],
      ['advance_clock', { duration: '5 seconds' }, /cannot read "5 seconds" as a duration.* at duration$/m],
      ['advance_clock', { duration: '367d' }, / at duration$/m],
      ['wait_for_message', { id: 'x', until: 'delivered', timeout_seconds: 121 }, / at timeout_seconds$/m],
      ['add_fault', { fault: { status: 200, code: 'ok' } }, /fault/],
      [
        'doctor_webhook_receiver',
        { url: 'http://example.com/webhooks', secret: 'whsec_x' },
        /loopback.* at url$/m,
      ],
      ['list_connections', { limit: 101 }, / at limit$/m],
    ];
    for (const [name, args, pattern] of cases) {
      const result = await session.call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(/Input validation error/);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(pattern);
    }
    // Nothing reached the API or the control API.
    expect((await control().listMessages()).data).toHaveLength(0);
    expect((await control().listFaults()).data).toHaveLength(0);
    expect(await v1Requests()).toEqual([]);
  });
});

describe('parley mcp: keys', () => {
  it('with no key and no base URL anywhere, serves the emulator found on loopback with its sandbox key', async () => {
    const session = await openSession({
      PARLEY_API_KEY: undefined,
      PARLEY_BASE_URL: undefined,
      // The CLI's test override of 127.0.0.1:4010, which a test cannot own.
      PARLEY_TEST_LOCAL_EMULATOR_ORIGIN: new URL(server.baseUrl).origin,
    });
    expect((await session.ok('get_status')).environment).toBe('sandbox');
    expect((await session.client.listTools()).tools.map((tool) => tool.name)).toContain('advance_clock');
    await expect
      .poll(() => session.stderr(), { timeout: 15_000 })
      .toContain(`(key from the local emulator at ${new URL(server.baseUrl).origin}, emulator tools on)`);
  });

  it('a live key is refused at start (exit 3, nothing on stdout, even with --json); --allow-live serves it', async () => {
    const app = await control().createApplication({ name: 'Live', environment: 'live' });
    const { key } = await control().createKey(app.id, { accept_agreement: true });
    expect(key).toMatch(/^prl_live_/);
    for (const args of [['mcp'], ['mcp', '--json']]) {
      const refused = await runCli(args, {
        XDG_CONFIG_HOME: '/nonexistent',
        PARLEY_API_KEY: key,
        PARLEY_BASE_URL: server.baseUrl,
      });
      expect(refused.code).toBe(3);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        'Error: the API key from PARLEY_API_KEY is a live key: parley mcp serves sandbox keys only, so an agent cannot send real messages. Pass --allow-live to serve it anyway\n',
      );
      expect(refused.stderr).not.toContain(key);
    }
    const session = await openSession({ PARLEY_API_KEY: key }, ['--allow-live']);
    expect((await session.ok('get_status')).environment).toBe('live');
  });

  it('no tool result holds the API key or a signing secret, but the create_endpoint answer that makes the secret', async () => {
    const session = await openSession();
    const endpoint = await session.ok('create_endpoint', { url: receiver.url });
    const secret = endpoint.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const afterCreation = session.seen.length;
    // The secret and the key put where results echo them: a message's text, a reference, a receiver's answer.
    const sent = await session.ok('send_message', {
      type: 'text',
      connection_id: SANDBOX_CONNECTION,
      to: '+33612345678',
      text: `secret ${secret} key ${server.sandboxKey}`,
      client_reference: secret.slice(0, 100),
    });
    const messageId = (sent.message as { id: string }).id;
    expect((sent.message as { text: string }).text).toBe(
      `secret whsec_… key ${server.sandboxKey.slice(0, 16)}…`,
    );
    await session.ok('trigger_sandbox_event', {
      type: 'message.received',
      overrides: { 'data.message.text': secret },
    });
    await session.ok('advance_clock', { duration: '10s' });
    await control().idle();
    await session.ok('get_message', { id: messageId });
    await session.ok('get_status');
    const deliveries = await session.ok('list_deliveries', { endpoint_id: endpoint.id });
    await session.ok('replay_delivery', { id: (deliveries.data as { id: string }[])[0]!.id });
    await session.ok('set_webhook_chaos', { endpoint_id: endpoint.id, wrong_secret: { next: 1 }, seed: 7 });
    await session.ok('set_webhook_chaos', { endpoint_id: endpoint.id, off: true });
    await session.ok('tail_activity', { limit: 100 });
    await session.ok('list_magic_numbers');
    await session.ok('doctor_webhook_receiver', { url: receiver.url, secret, timeout_seconds: 5 });
    await session.fails('get_message', { id: secret });
    const later = session.seen.slice(afterCreation);
    expect(later).toHaveLength(13);
    for (const text of later) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('whsec_'.length));
      expect(text).not.toContain(server.sandboxKey);
    }
    expect(session.stderr()).not.toContain(server.sandboxKey);
  });
});

describe('parley mcp: the emulator tools', () => {
  it('create_endpoint to a real receiver → trigger_sandbox_event → the receiver gets a delivery that verifies with the secret', async () => {
    const session = await openSession();
    const endpoint = await session.ok('create_endpoint', { url: receiver.url, events: ['message.received'] });
    expect(endpoint).toMatchObject({ url: receiver.url, events: ['message.received'] });
    const event = await session.ok('trigger_sandbox_event', {
      type: 'message.received',
      overrides: { 'data.message.text': 'Where is my order?' },
    });
    expect(event.deliveries_queued).toBe(1);
    const { now } = await session.ok('advance_clock', { duration: '1s' });
    await control().idle();
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    const verified: WebhookEvent = await verifyWebhook(
      request!.body,
      request!.headers as Record<string, string>,
      endpoint.secret as string,
      { now: new Date(now as string) },
    );
    expect(verified.id).toBe(event.id);
    expect(verified).toMatchObject({
      type: 'message.received',
      data: { message: { text: 'Where is my order?' } },
    });
    const deliveries = await session.ok('list_deliveries', { endpoint_id: endpoint.id });
    expect(deliveries.data).toEqual([expect.objectContaining({ event_id: event.id, status: 'delivered' })]);
    // replay_delivery: the same event again.
    await session.ok('replay_delivery', { id: (deliveries.data as { id: string }[])[0]!.id });
    await session.ok('advance_clock', { duration: '1s' });
    await control().idle();
    expect(receiver.requests).toHaveLength(2);
    expect(JSON.parse(receiver.requests[1]!.body.toString()).id).toBe(event.id);
  });

  it('add_fault, clear_faults, set_webhook_chaos, list_magic_numbers, create_workspace with its own clock, reset', async () => {
    const session = await openSession();
    const fault = await session.ok('add_fault', {
      // A status the SDK does not retry: the one call gets it.
      fault: { status: 403, code: 'insufficient_scope' },
      method: 'GET',
      path: '/v1/status',
      times: 2,
    });
    expect(fault).toMatchObject({ remaining: 2, method: 'GET', path: '/v1/status' });
    const refused = await session.fails('get_status');
    expect(refused).toMatchObject({ code: 'insufficient_scope', request_id: expect.stringMatching(/^req_/) });
    expect((await session.ok('clear_faults', { id: fault.id })).removed).toBe(fault.id);
    expect((await control().listFaults()).data).toHaveLength(0);
    await session.ok('add_fault', { fault: { drop: true } });
    expect(await session.ok('clear_faults')).toEqual({ ok: true });
    expect((await control().listFaults()).data).toHaveLength(0);

    const endpoint = await session.ok('create_endpoint', { url: receiver.url });
    const chaos = await session.ok('set_webhook_chaos', {
      endpoint_id: endpoint.id,
      duplicate: { next: 2 },
      out_of_order: { rate: 0.5 },
      seed: 42,
    });
    expect(chaos).toMatchObject({
      endpoint_id: endpoint.id,
      duplicate: { next: 2 },
      out_of_order: { rate: 0.5 },
      seed: 42,
    });
    const off = await session.ok('set_webhook_chaos', { endpoint_id: endpoint.id, off: true });
    expect(off.duplicate).toBeUndefined();

    const magic = await session.ok('list_magic_numbers');
    expect((magic.data as { number: string }[]).map((row) => row.number)).toContain('+15550101002');

    const workspace = await session.ok('create_workspace', {
      name: 'agent',
      clock: 'frozen',
      now: '2030-01-01T00:00:00.000Z',
    });
    expect(workspace).toMatchObject({ name: 'agent', clock: 'frozen' });
    const moved = await session.ok('advance_clock', { duration: '1h30m', workspace_id: workspace.id });
    expect(moved).toEqual({
      now: '2030-01-01T01:30:00.000Z',
      advanced_ms: 5_400_000,
      workspace_id: workspace.id,
    });
    expect(await session.ok('reset', { workspace_id: workspace.id })).toEqual({
      ok: true,
      workspace_id: workspace.id,
    });
    expect(await session.ok('reset')).toEqual({ ok: true });
    expect((await control().listEndpoints()).data.map((each) => each.id)).not.toContain(endpoint.id);
  });

  it('doctor_webhook_receiver runs the webhooks doctor battery against a loopback receiver', async () => {
    const session = await openSession();
    const report = await session.ok('doctor_webhook_receiver', {
      url: receiver.url,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      timeout_seconds: 5,
    });
    expect((report.cases as { name: string }[]).map((each) => each.name)).toEqual([
      'valid',
      'duplicate',
      'bad_signature',
      'stale_timestamp',
      'tampered_body',
      'rotation',
      'out_of_order',
      'answer_time',
    ]);
    // A receiver that answers 200 to everything accepts forged deliveries: the doctor fails it.
    expect(report.ok).toBe(false);
    expect(
      (report.cases as { name: string; result: string }[]).find((each) => each.name === 'bad_signature')
        ?.result,
    ).toBe('failed');
    expect(receiver.requests.length).toBeGreaterThanOrEqual(8);
  });
});

describe('parley mcp: a scripted agent', () => {
  it('sends a template, advances, sees the delivered webhook, injects a 503 and finds the SDK retry in tail_activity', async () => {
    const agent = await openSession();
    const endpoint = await agent.ok('create_endpoint', {
      url: receiver.url,
      events: ['message.status_updated'],
    });
    const sent = await agent.ok('send_message', { ...hello, to: '+33612345678' });
    const id = (sent.message as { id: string }).id;
    await agent.ok('advance_clock', { duration: '5s' });
    await control().idle();
    expect((await agent.ok('get_message', { id })).status).toBe('delivered');
    const statuses = receiver.requests.map((request) => JSON.parse(request.body.toString()).data.message);
    expect(statuses.filter((message) => message.id === id).map((message) => message.status)).toEqual([
      'sent',
      'delivered',
    ]);
    const deliveries = await agent.ok('list_deliveries', { endpoint_id: endpoint.id });
    expect(
      (deliveries.data as { status: string }[]).every((delivery) => delivery.status === 'delivered'),
    ).toBe(true);

    const fault = await agent.ok('add_fault', {
      fault: { status: 503, code: 'service_unavailable' },
      method: 'POST',
      path: '/v1/messages',
    });
    const retried = await agent.ok('send_message', { ...hello, to: '+33612345679' });
    expect((retried.message as { status: string }).status).toBe('queued');
    const activity = await agent.ok('tail_activity', { kind: 'request', path: '/v1/messages', limit: 2 });
    expect(
      (activity.data as { method: string; status: number; fault?: string }[]).map((item) => [
        item.method,
        item.status,
        item.fault ?? null,
      ]),
    ).toEqual([
      ['POST', 503, fault.id],
      ['POST', 202, null],
    ]);
  });
});
