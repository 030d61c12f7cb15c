import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EMULATOR_BIN as BIN,
  ensureEmulatorBuilt as ensureBuilt,
  runEmulatorBin as runBin,
  startEmulatorBin as startBin,
  stopEmulatorBins,
} from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';

afterEach(stopEmulatorBins);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-emulator-'));
  dirs.push(dir);
  return dir;
};

describe('parley-emulator bin', () => {
  test('--json prints exactly one ready line with the URLs and the deterministic sandbox key', async () => {
    const { ready, child } = await startBin([]);
    expect(ready).toEqual({
      ready: true,
      base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/),
      console_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      control_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/_emulator$/),
      sandbox_key: 'prl_sandbox_parleyEmulatorDefaultSandboxKey1',
      seeded: null,
      restored: null,
    });
    const status = await fetch(`${ready.base_url}/status`, {
      headers: { authorization: `Bearer ${ready.sandbox_key}` },
    });
    expect(status.status).toBe(200);
    child.kill('SIGKILL');
  });

  test('human mode prints the base URL, console URL and key, the last line saying ready', async () => {
    ensureBuilt();
    const child = spawn(process.execPath, [BIN, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = await new Promise<string[]>((resolve) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (/ready/.test(output)) resolve(output.trim().split('\n'));
      });
    });
    child.kill('SIGKILL');
    const text = lines.join('\n');
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(text).toMatch(/Console +http:\/\/127\.0\.0\.1:\d+\//);
    expect(text).toContain('prl_sandbox_parleyEmulatorDefaultSandboxKey1');
    expect(lines.at(-1)).toContain('ready');
  });

  test('--help lists every flag', async () => {
    const { code, stdout } = await runBin(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--data-dir',
      '--clock',
      '--url-policy',
      '--rate-limits',
      '--retry-schedule',
      '--seed',
      '--json',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  test('bad flags: a clear message and exit code 2', async () => {
    const result = await runBin(['--clock', 'sideways']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--clock must be one of real, frozen');
    const seed = await runBin(['--seed', '/nonexistent/seed.json']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain('cannot read seed file /nonexistent/seed.json');
  });

  test('SIGTERM persists first: messages, keys (hashed only) and the clock survive a restart', async () => {
    const dataDir = tempDir();
    const first = await startBin(['--data-dir', dataDir, '--clock', 'frozen']);
    const control = first.ready.control_url;
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const app = await (
      await post(`${control}/applications`, { name: 'Kept', environment: 'sandbox' })
    ).json();
    const key = await (await post(`${control}/applications/${app.id}/keys`, {})).json();
    await post(`${control}/clock/advance`, { ms: 3_600_000 });
    const { now } = await (await fetch(`${control}/clock`)).json();
    const sent = await post(
      `${first.ready.base_url}/messages`,
      {
        connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
        to: '+33612345678',
        type: 'text',
        text: 'Bonjour',
      },
      { authorization: `Bearer ${key.key}`, 'idempotency-key': 'kept-1' },
    );
    const message = await sent.json();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(143);

    const state = readFileSync(join(dataDir, 'state.json'), 'utf8');
    expect(state).not.toContain(key.key);
    expect(state).toContain(createHash('sha256').update(key.key).digest('hex'));

    const second = await startBin(['--data-dir', dataDir, '--clock', 'frozen']);
    expect((await (await fetch(`${second.ready.control_url}/clock`)).json()).now).toBe(now);
    const read = await fetch(`${second.ready.base_url}/messages/${message.id}`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(read.status).toBe(200);
    const replay = await post(
      `${second.ready.base_url}/messages`,
      {
        connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
        to: '+33612345678',
        type: 'text',
        text: 'Bonjour',
      },
      { authorization: `Bearer ${key.key}`, 'idempotency-key': 'kept-1' },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await replay.json()).id).toBe(message.id);
    second.child.kill('SIGKILL');
  });
});
