// `parley emulator faults | magic-numbers | chaos | clock --workspace | reset --workspace`: the built
// CLI against a real emulator's control API, found at the origin of the base URL.
import { DEFAULT_APPLICATION_ID, type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = { PARLEY_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: '/nonexistent-parley-e2e' };
});
afterAll(() => server?.close());

describe('parley emulator testing tools, as a process', () => {
  it('faults add/list/clear: the next POST /v1/messages gets the 503; bad flags are exit 2', async () => {
    const added = await runCli(
      [
        'emulator',
        'faults',
        'add',
        '--status',
        '503',
        '--code',
        'internal_error',
        '--method',
        'POST',
        '--path',
        '/v1/messages',
        '--json',
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const fault = JSON.parse(added.stdout);
    expect(fault).toMatchObject({
      object: 'fault',
      remaining: 1,
      fault: { status: 503, code: 'internal_error' },
    });
    const answer = await fetch(`${server.baseUrl}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.sandboxKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(503);
    const listed = await runCli(['emulator', 'faults', 'list'], env);
    expect(listed.stdout).toBe(`${fault.id}  POST /v1/messages  → 503 internal_error  (0 of 1 left)\n`);
    expect(await runCli(['emulator', 'faults', 'clear'], env)).toEqual({
      code: 0,
      stdout: 'Every fault removed\n',
      stderr: '',
    });
    const bad = await runCli(['emulator', 'faults', 'add', '--hang', '--drop'], env);
    expect(bad.code).toBe(2);
    // The emulator refuses the two answers; the CLI names the flags that give one.
    expect(bad.stderr).toContain(
      'Error: the answer (--status with --code, --hang, --drop or --delay-ms) must be one of {"status","code","retry_after"?}, {"hang":true}, {"drop":true}, {"delay_ms"}.',
    );
    const tooMany = await runCli(['emulator', 'faults', 'add', '--drop', '--times', '10001'], env);
    expect(tooMany).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --times must be a whole number from 1 to 10000.\n',
    });
    const json = await runCli(['emulator', 'faults', 'add', '--status', '503', '--json'], env);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'usage_error' } });
  });

  it('faults add --key-prefix: only calls with that key get the fault; bad or both key flags are exit 2', async () => {
    const { key } = await createControlClient({ baseUrl: server.url }).createKey(DEFAULT_APPLICATION_ID);
    const prefix = key.slice(0, 20);
    const added = await runCli(
      ['emulator', 'faults', 'add', '--key-prefix', prefix, '--status', '503', '--code', 'internal_error'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const [fault] = (await server.emulator.control.listFaults()).data;
    expect(fault).toMatchObject({ key_id: null, key_prefix: prefix, method: null, path: null });
    expect(added.stdout).toBe(
      `Fault added: ${fault!.id}  any method any /v1 path key ${prefix}…  → 503 internal_error  (1 of 1 left)\n`,
    );
    const connections = (apiKey: string) =>
      fetch(`${server.baseUrl}/connections`, { headers: { authorization: `Bearer ${apiKey}` } });
    const other = await connections(server.sandboxKey);
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ object: 'list' });
    const faulted = await connections(key);
    expect(faulted.status).toBe(503);
    expect(await faulted.json()).toMatchObject({
      error: { code: 'internal_error', details: { fault_id: fault!.id } },
    });
    expect((await runCli(['emulator', 'faults', 'clear'], env)).code).toBe(0);

    const badId = await runCli(['emulator', 'faults', 'add', '--drop', '--key-id', 'nope'], env);
    expect(badId).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --key-id must be the id (UUID) of an API key.\n',
    });
    const both = await runCli(
      ['emulator', 'faults', 'add', '--drop', '--key-id', fault!.id, '--key-prefix', prefix],
      env,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--key-prefix: Give key_id or key_prefix, not both.');
    expect((await server.emulator.control.listFaults()).data).toEqual([]);
  });

  it('magic-numbers, chaos set/show/off, clock and reset of a workspace', async () => {
    const magic = await runCli(['emulator', 'magic-numbers', '--json'], env);
    expect(JSON.parse(magic.stdout).map((entry: { number: string }) => entry.number)).toContain(
      '+15550101006',
    );

    const endpoint = await server.emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: 'http://127.0.0.1:9/webhooks',
      events: ['webhook.test'],
    });
    const set = await runCli(
      [
        'emulator',
        'chaos',
        endpoint.id,
        '--duplicate',
        'next:2',
        '--stale-timestamp',
        'rate:0.1',
        '--seed',
        '42',
      ],
      env,
    );
    expect(set).toEqual({
      code: 0,
      stdout: `Chaos on endpoint ${endpoint.id} (seed 42): duplicate next 2, stale_timestamp rate 0.1\n`,
      stderr: '',
    });
    const shown = JSON.parse((await runCli(['emulator', 'chaos', endpoint.id, '--json'], env)).stdout);
    expect(shown).toEqual({
      endpoint_id: endpoint.id,
      seed: 42,
      duplicate: { next: 2 },
      stale_timestamp: { rate: 0.1 },
      applied: {},
    });
    const off = await runCli(['emulator', 'chaos', endpoint.id, '--off'], env);
    expect(off.stdout).toBe(`Chaos off for endpoint ${endpoint.id}\n`);
    expect((await runCli(['emulator', 'chaos', endpoint.id, '--duplicate', 'twice'], env)).code).toBe(2);

    const workspace = await server.emulator.control.createWorkspace({
      name: 'e2e',
      clock: 'frozen',
      now: '2030-01-01T00:00:00.000Z',
    });
    const moved = await runCli(
      ['emulator', 'clock', 'advance', '5s', '--workspace', workspace.id, '--json'],
      env,
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toEqual({
      now: '2030-01-01T00:00:05.000Z',
      advanced_ms: 5_000,
      workspace_id: workspace.id,
    });
    const clock = await runCli(['emulator', 'clock', '--workspace', workspace.id], env);
    expect(clock.stdout).toMatch(/^2030-01-01T00:00:05.000Z \(its own clock, frozen: /);
    const reset = await runCli(['emulator', 'reset', '--workspace', workspace.id, '--json'], env);
    expect(JSON.parse(reset.stdout)).toEqual({ ok: true, emulator: server.url, workspace_id: workspace.id });
  });
});
