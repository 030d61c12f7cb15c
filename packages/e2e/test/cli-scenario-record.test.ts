// `parley scenario record`: the built CLI records a workspace of a running emulator, and
// `parley scenario run` replays the file (`pnpm --filter @parley/emulator build && pnpm --filter @parley/cli build` first).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type EmulatorServer, type Sandbox, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
let server: EmulatorServer;
let sandbox: Sandbox;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'parley-scenario-record-'));

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = { PARLEY_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: '/nonexistent-parley-e2e' };
  // A workspace of its own, one application in it: what the CLI records over HTTP.
  sandbox = await createSandbox(server.emulator, { now: '2026-11-02T09:00:00Z' });
  await sandbox.parley.messages.send({
    type: 'text',
    connection_id: CONNECTION,
    to: '+33612345678',
    text: 'Hi',
  });
  await sandbox.advance('3s');
  await sandbox.parley.messages.send({
    type: 'text',
    connection_id: CONNECTION,
    to: '+15550101004',
    text: 'Lost',
  });
  await sandbox.advance('1m');
});
afterAll(async () => {
  await sandbox?.dispose();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('parley scenario record (as a process)', () => {
  it('records the sends and the advance; parley scenario run replays the file: exit 0', async () => {
    const file = join(dir, 'recorded.yaml');
    const recorded = await runCli(
      ['scenario', 'record', '--workspace', sandbox.workspaceId, '--out', file, '--json'],
      env,
    );
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    expect(JSON.parse(recorded.stdout)).toEqual({
      file,
      application_id: sandbox.applicationId,
      workspace_id: sandbox.workspaceId,
      steps: 6,
    });
    expect(parse(readFileSync(file, 'utf8'))).toMatchObject({
      version: 1,
      start: '2026-11-02T09:00:00.000Z',
      steps: [
        { send: { name: 'message_1', body: { type: 'text', to: '+33612345678', text: 'Hi' } } },
        { advance: '3s' },
        { send: { name: 'message_2', body: { type: 'text', to: '+15550101004', text: 'Lost' } } },
        { advance: '1m' },
        { expect_status: { message: 'message_1', status: 'delivered' } },
        { expect_status: { message: 'message_2', status: 'failed' } },
      ],
    });
    const ran = await runCli(['scenario', 'run', file], {});
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim().split('\n').at(-1)).toBe('1 scenario(s): 1 passed, 0 failed');
    // Written through a temporary file that is gone once renamed.
    expect(readdirSync(dir)).toEqual(['recorded.yaml']);
  });

  it('records a customer message and the deliveries over HTTP; the replay passes: exit 0', async () => {
    const chat = await createSandbox(server.emulator, { now: '2026-11-02T09:00:00Z' });
    try {
      await chat.receiver();
      await server.emulator.control.messageAsCustomer(chat.applicationId, {
        connection_id: CONNECTION,
        from: '+33612345678',
        text: 'Shipped?',
      });
      await chat.advance('2s');
      await chat.parley.messages.send({
        type: 'text',
        connection_id: CONNECTION,
        to: '+33612345678',
        text: 'Yes',
      });
      await chat.advance('5s');
      const file = join(dir, 'chat.yaml');
      const recorded = await runCli(['scenario', 'record', '--app', chat.applicationId, '--out', file], env);
      expect(recorded.stderr).toBe('');
      expect(recorded.code).toBe(0);
      const yaml = parse(readFileSync(file, 'utf8'));
      expect(yaml.endpoints).toEqual({ app: {} });
      expect(yaml.steps.slice(0, 4)).toEqual([
        { customer: { from: '+33612345678', text: 'Shipped?' } },
        { advance: '2s' },
        { send: { name: 'message_1', body: { type: 'text', to: '+33612345678', text: 'Yes' } } },
        { advance: '5s' },
      ]);
      expect(yaml.steps.filter((step: object) => 'expect_delivery' in step)).toHaveLength(3);
      const ran = await runCli(['scenario', 'run', file], {});
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      rmSync(file);
    } finally {
      await chat.dispose();
    }
  });

  it('records a template send with its variables, a triggered event, and names a fault it cannot replay; the replay passes: exit 0', async () => {
    const shop = await createSandbox(server.emulator, {
      now: '2026-11-02T09:00:00Z',
      client: { maxRetries: 0 },
    });
    try {
      await shop.parley.messages.send({
        type: 'template',
        connection_id: CONNECTION,
        to: '+33612345678',
        template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
      });
      await shop.advance('2s');
      await shop.trigger('connection.disconnected', { 'data.connection.quality_rating': 'RED' });
      const fault = await server.emulator.control.createFault({
        method: 'POST',
        path: '/v1/messages',
        key_id: shop.keyId,
        fault: { status: 503, code: 'internal_error' },
      });
      await expect(
        shop.parley.messages.send({ type: 'text', connection_id: CONNECTION, to: '+33612345678', text: 'x' }),
      ).rejects.toMatchObject({ code: 'internal_error' });
      await shop.advance('5s');
      const file = join(dir, 'shop.yaml');
      const recorded = await runCli(
        ['scenario', 'record', '--app', shop.applicationId, '--out', file, '--json'],
        env,
      );
      expect(recorded.stderr).toBe('');
      expect(recorded.code).toBe(0);
      expect(JSON.parse(recorded.stdout)).toEqual({
        file,
        application_id: shop.applicationId,
        workspace_id: shop.workspaceId,
        steps: 5,
        not_recorded: 1,
      });
      const text = readFileSync(file, 'utf8');
      expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual([
        '# Seen in the emulator and not recorded (the scenario language cannot replay it faithfully):',
        `# - fault ${fault.id} (POST /v1/messages, key ${shop.keyId}: 503 internal_error, times 1, 0 left) answered POST /v1/messages at 2026-11-02T09:00:02.000Z (+2s): the emulator keeps no body of a call a fault answered, so the replay cannot make that call again, and a fault step would answer another call`,
      ]);
      expect(parse(text).steps).toEqual([
        {
          send: {
            name: 'message_1',
            body: {
              type: 'template',
              to: '+33612345678',
              template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
            },
          },
        },
        { advance: '2s' },
        {
          trigger: {
            type: 'connection.disconnected',
            overrides: {
              'data.connection.name': 'Parley Sandbox (disconnected)',
              'data.connection.phone_number': '+15550100002',
              'data.connection.quality_rating': 'RED',
            },
          },
        },
        { advance: '5s' },
        { expect_status: { message: 'message_1', status: 'delivered' } },
      ]);
      const ran = await runCli(['scenario', 'run', file], {});
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      rmSync(file);
    } finally {
      await shop.dispose();
    }
  });

  it('keeps an existing file (exit 2) unless --force, which replaces it', async () => {
    const file = join(dir, 'kept.yaml');
    writeFileSync(file, 'mine\n');
    const refused = await runCli(
      ['scenario', 'record', '--workspace', sandbox.workspaceId, '--out', file],
      env,
    );
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: ${file} exists: pass --force to replace it\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
    const forced = await runCli(
      ['scenario', 'record', '--workspace', sandbox.workspaceId, '--out', file, '--force'],
      env,
    );
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toBe(
      `Recorded application ${sandbox.applicationId} as 6 step(s) to ${file}: replay it with parley scenario run ${file}\n`,
    );
    expect(parse(readFileSync(file, 'utf8')).version).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['kept.yaml', 'recorded.yaml']);
  });

  it('an application that is not in the workspace: exit 1 naming it; an emulator that is not there: exit 3', async () => {
    const other = '2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d';
    const file = join(dir, 'none.yaml');
    const missing = await runCli(
      ['scenario', 'record', '--workspace', sandbox.workspaceId, '--app', other, '--out', file],
      env,
    );
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: no application ${other} in workspace ${sandbox.workspaceId} (see GET /_emulator/applications)\n`,
    });
    const several = await runCli(['scenario', 'record', '--out', file], env);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/^Error: \d+ applications in the emulator: pass --app with one of /);
    expect(several.stderr).toContain(`${sandbox.applicationId} (sandbox)`);
    const notId = await runCli(['scenario', 'record', '--app', 'shop', '--out', file], env);
    expect(notId.code).toBe(2);
    expect(notId.stderr).toMatch(/^Error: --app takes an id such as /);
    const gone = await runCli(['scenario', 'record', '--out', file], {
      ...env,
      PARLEY_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(
      /^Error: could not reach the emulator control API at http:\/\/127\.0\.0\.1:9: /,
    );
    expect(readdirSync(dir).sort()).toEqual(['kept.yaml', 'recorded.yaml']);
  });
});
