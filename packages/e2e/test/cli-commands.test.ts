// The built `parley` as a real process against a real emulator on 127.0.0.1 (frozen clock).
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, closedPort, runCli, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';

let server: EmulatorServer;
let configHome: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  configHome = await mkdtemp(join(tmpdir(), 'parley-cli-e2e-'));
  env = { PARLEY_API_KEY: server.sandboxKey, PARLEY_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: configHome };
});
afterAll(async () => {
  await server?.close();
  await rm(configHome, { recursive: true, force: true });
});
// Each test starts from the seed, so per-minute windows never carry over under the frozen clock.
beforeEach(async () => {
  await createControlClient({ baseUrl: server.url }).reset();
});

async function advanceClock(ms: number): Promise<void> {
  await createControlClient({ baseUrl: server.url }).advanceClock(ms);
}

describe('parley (built) --version and --help', () => {
  it('prints the package version', async () => {
    const { version } = JSON.parse(
      await readFile(new URL('../../cli/package.json', import.meta.url), 'utf8'),
    );
    expect(await runCli(['--version'], {})).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lists every command and documents the exit codes', async () => {
    const { code, stdout } = await runCli(['--help'], {});
    expect(code).toBe(0);
    for (const command of [
      'status',
      'send',
      'messages',
      'connections',
      'templates',
      'trigger',
      'listen',
      'webhooks',
      'emulator',
      'config',
      'completion',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(stdout).toMatch(
      /Exit codes:\n {2}0 {2}ok\n {2}1 .*\n {2}2 {2}usage error.*\n {2}3 {2}network or configuration error/,
    );
  });
});

describe('parley status', () => {
  it('--json prints exactly the status object', async () => {
    const { code, stdout, stderr } = await runCli(['status', '--json'], env);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual({
      status: 'authenticated',
      application_id: expect.any(String),
      workspace_id: expect.any(String),
      environment: 'sandbox',
      scopes: expect.arrayContaining(['messages.send']),
      capabilities: expect.arrayContaining(['system.status.read']),
      timestamp: expect.any(String),
      sandbox_external_calls: false,
    });
  });

  it('human output is plain text off a terminal: no colour codes', async () => {
    const { code, stdout } = await runCli(['status'], env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Status\s+authenticated$/m);
    expect(stdout).toMatch(/^Rate limit\s+\d+\/60 requests left, window resets in \d+ s$/m);
    expect(stdout).not.toContain('\u001b[');
  });

  it('colours only when asked: FORCE_COLOR on, NO_COLOR and --no-color win over it', async () => {
    expect((await runCli(['connections', 'list'], { ...env, FORCE_COLOR: '1' })).stdout).toContain('\u001b[');
    expect(
      (await runCli(['connections', 'list'], { ...env, FORCE_COLOR: '1', NO_COLOR: '1' })).stdout,
    ).not.toContain('\u001b[');
    expect(
      (await runCli(['connections', 'list', '--no-color'], { ...env, FORCE_COLOR: '1' })).stdout,
    ).not.toContain('\u001b[');
  });

  it('a refused key: exit 1, one line naming PARLEY_API_KEY and the profile, with the request id', async () => {
    const bad = { ...env, PARLEY_API_KEY: 'prl_sandbox_0000000000000000000000000000000A' };
    const human = await runCli(['status'], bad);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(human.stderr).toMatch(
      /^Error: .*invalid_api_key.*req_[0-9a-f]{32}.*PARLEY_API_KEY.*profile "default"/,
    );
    expect(human.stderr).not.toContain(bad.PARLEY_API_KEY);
    const json = await runCli(['status', '--json'], bad);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'invalid_api_key',
        message: expect.any(String),
        request_id: expect.stringMatching(/^req_/),
        details: {},
      },
    });
  });

  it('nothing listening: exit 3; no base URL: exit 3 naming --base-url and PARLEY_BASE_URL', async () => {
    const down = await runCli(['status'], {
      ...env,
      PARLEY_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('ECONNREFUSED');
    const missing = await runCli(['status'], {
      PARLEY_API_KEY: server.sandboxKey,
      XDG_CONFIG_HOME: configHome,
    });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/--base-url.*PARLEY_BASE_URL/);
  });

  it('usage errors exit 2: unknown command, unknown option, missing argument', async () => {
    expect((await runCli(['frobnicate'], env)).code).toBe(2);
    expect((await runCli(['status', '--frobnicate'], env)).code).toBe(2);
    const missing = await runCli(['messages', 'get'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'id'");
  });
});

describe('parley send', () => {
  it('sends a template (--json) and prints the generated idempotency key on stderr only', async () => {
    const { code, stdout, stderr } = await runCli(
      [
        'send',
        '--connection',
        SANDBOX_ACTIVE_CONNECTION_ID,
        '--to',
        '+33612345678',
        '--template',
        'order_confirmation',
        '--language',
        'fr',
        '--var',
        'Ada',
        'A-42',
        '--client-reference',
        'order-42',
        '--json',
      ],
      env,
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/^Idempotency-Key: [0-9a-f-]{36}\n$/);
    expect(JSON.parse(stdout)).toMatchObject({
      object: 'message',
      type: 'template',
      status: 'queued',
      template: { name: 'order_confirmation', language: 'fr' },
      client_reference: 'order-42',
    });
  });

  it('sends a text message, human view', async () => {
    const { code, stdout } = await runCli(
      [
        'send',
        '--connection',
        SANDBOX_ACTIVE_CONNECTION_ID,
        '--to',
        '+33612345678',
        '--text',
        'Bonjour',
        '--idempotency-key',
        'e2e-text-1',
      ],
      env,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Status\s+queued$/m);
    expect(stdout).toMatch(/^Text\s+Bonjour$/m);
  });

  it('--wait follows the message while the test moves the frozen clock', async () => {
    const sending = startCli(
      [
        'send',
        '--connection',
        SANDBOX_ACTIVE_CONNECTION_ID,
        '--to',
        '+33612345678',
        '--text',
        'wait',
        '--wait',
        '--interval',
        '50',
        '--json',
      ],
      env,
    );
    await sending.waitFor('Idempotency-Key');
    // Under --json the progress line is silent: find the message through the control API instead.
    let messageId = '';
    for (;;) {
      const list = await createControlClient({ baseUrl: server.url }).listMessages();
      messageId = list.data.find((message) => message.text === 'wait')?.id ?? '';
      if (messageId) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await advanceClock(2_000);
    await advanceClock(3_000);
    const result = await sending.exited;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: messageId, status: 'delivered' });
  });

  it('--wait shows queued → sent → delivered on stderr in human mode', async () => {
    const sending = startCli(
      [
        'send',
        '--connection',
        SANDBOX_ACTIVE_CONNECTION_ID,
        '--to',
        '+33612345678',
        '--text',
        'progress',
        '--wait',
        '--interval',
        '50',
      ],
      env,
    );
    await sending.waitFor(/ queued \(/);
    await advanceClock(2_000);
    await sending.waitFor('queued → sent');
    await advanceClock(3_000);
    const result = await sending.exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/queued → sent → delivered \(\d+\.\d s\)\n$/);
    expect(result.stdout).toMatch(/^Status\s+delivered$/m);
  });

  it('--wait on an unreachable recipient: exit 1 with the message error', async () => {
    const result = await runCli(
      [
        'send',
        '--connection',
        SANDBOX_ACTIVE_CONNECTION_ID,
        '--to',
        '+33600000000',
        '--text',
        'x',
        '--wait',
        '--json',
      ],
      env,
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({
      code: 'message_failed',
      message: expect.stringContaining('recipient_unreachable'),
    });
  });

  it('without a terminal, missing arguments are a usage error (exit 2), never a prompt', async () => {
    const result = await runCli(['send', '--to', '+33612345678'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing --connection, --template or --text/);
  });
});

describe('reads and sandbox events', () => {
  it('connections list, templates list and trigger, as JSON', async () => {
    const connections = JSON.parse((await runCli(['connections', 'list', '--json'], env)).stdout);
    expect(connections.map((connection: { status: string }) => connection.status)).toEqual([
      'active',
      'disconnected',
    ]);
    const templates = JSON.parse(
      (await runCli(['templates', 'list', '--connection', connections[0].id, '--json'], env)).stdout,
    );
    expect(templates.map((template: { name: string }) => template.name)).toEqual([
      'hello_world',
      'order_confirmation',
    ]);
    const triggered = await runCli(['trigger', 'webhook.test', '--json'], env);
    expect(triggered.code).toBe(0);
    expect(JSON.parse(triggered.stdout)).toMatchObject({ type: 'webhook.test', deliveries_queued: 0 });
  });

  it('messages get prints the message', async () => {
    const sent = JSON.parse(
      (
        await runCli(
          [
            'send',
            '--connection',
            SANDBOX_ACTIVE_CONNECTION_ID,
            '--to',
            '+33612345678',
            '--text',
            'hi',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    const read = await runCli(['messages', 'get', sent.id], env);
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(new RegExp(`^Message\\s+${sent.id}$`, 'm'));
  });
});

describe('config profiles through the process', () => {
  it('saves a profile with mode 0600 and uses it; list masks the key', async () => {
    const profileEnv = { XDG_CONFIG_HOME: configHome };
    const saved = await runCli(
      ['config', 'set', '--profile', 'local', '--api-key', server.sandboxKey, '--base-url', server.baseUrl],
      profileEnv,
    );
    expect(saved.code).toBe(0);
    expect(saved.stdout).not.toContain(server.sandboxKey);
    expect((await stat(join(configHome, 'parley', 'config.json'))).mode & 0o777).toBe(0o600);
    const list = await runCli(['config', 'list'], profileEnv);
    expect(list.stdout).toMatch(/local\s+prl_sandbox_…\w{4}\s+http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(list.stdout).not.toContain(server.sandboxKey);
    const status = await runCli(['status', '--profile', 'local', '--json'], profileEnv);
    expect(status.code).toBe(0);
  });
});

describe('webhooks sign | verify', () => {
  it('verifies what sign produced, and names the reason when the body changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-webhooks-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
    const body =
      '{"api_version":"2026-10-14","created_at":"2026-10-14T09:30:00Z","data":{"message":"hi"},"id":"evt_0123456789abcdef0123456789abcdef","livemode":false,"type":"webhook.test"}';
    await writeFile(join(dir, 'body.json'), body);
    const signed = await runCli(['webhooks', 'sign', '--secret', secret, '--body', '-', '--json'], {}, body);
    expect(signed.code).toBe(0);
    const { headers } = JSON.parse(signed.stdout);
    await writeFile(join(dir, 'headers.json'), JSON.stringify(headers));
    const verified = await runCli(
      ['webhooks', 'verify', '--headers', join(dir, 'headers.json'), '--body', join(dir, 'body.json')],
      { PARLEY_WEBHOOK_SECRET: secret },
    );
    expect(verified).toMatchObject({ code: 0, stdout: expect.stringContaining('✓ valid signature') });
    await writeFile(join(dir, 'body.json'), body.replace('hi', 'ho'));
    const refused = await runCli(
      [
        'webhooks',
        'verify',
        '--secret',
        secret,
        '--headers',
        join(dir, 'headers.json'),
        '--body',
        join(dir, 'body.json'),
      ],
      {},
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error: invalid delivery: signature_mismatch: /);
    const curl = await runCli(['webhooks', 'sign', '--secret', secret, '--body', join(dir, 'body.json')], {});
    expect(curl.stdout).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:3000\/webhooks' -H 'content-type: application\/json' -H 'parley-event-id: evt_0123456789abcdef0123456789abcdef'/,
    );
  });
});
