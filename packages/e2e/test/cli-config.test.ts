// `parley config set | delete` checks and messages through the built CLI.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
let configHome: string;
let env: Record<string, string>;
let server: EmulatorServer;

beforeAll(async () => {
  assertCliBuilt();
  configHome = await mkdtemp(join(tmpdir(), 'parley-cli-config-'));
  env = { XDG_CONFIG_HOME: configHome };
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});
afterAll(async () => {
  await server?.close();
  await rm(configHome, { recursive: true, force: true });
});

describe('parley config set', () => {
  it('refuses a key of another shape and a base URL without /v1 (exit 2, with a suggestion)', async () => {
    const key = await runCli(['config', 'set', '--api-key', 'prl_sandbox_typo'], env);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain(
      '--api-key must be prl_sandbox_ or prl_live_ followed by 32 letters or digits',
    );
    const url = await runCli(['config', 'set', '--base-url', 'http://127.0.0.1:4010'], env);
    expect(url).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --base-url must end in /v1: did you mean http://127.0.0.1:4010/v1?\n',
    });
  });
});

describe('parley config delete', () => {
  it('deletes a profile; an unknown one is exit 2 naming the known ones', async () => {
    expect((await runCli(['config', 'set', '--api-key', KEY, '--base-url', server.baseUrl], env)).code).toBe(
      0,
    );
    expect((await runCli(['config', 'set', '--profile', 'staging', '--api-key', KEY], env)).code).toBe(0);
    const deleted = await runCli(['config', 'delete', 'staging'], env);
    expect(deleted).toEqual({ code: 0, stdout: 'Deleted profile staging\n', stderr: '' });
    const unknown = await runCli(['config', 'delete', 'staging'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no profile "staging"');
    expect(unknown.stderr).toContain('(known: default)');
    const file = JSON.parse(await readFile(join(configHome, 'parley', 'config.json'), 'utf8'));
    expect(Object.keys(file.profiles)).toEqual(['default']);
  });
});

describe('a refused key from a profile', () => {
  it('names the profile once', async () => {
    const unknownKey = 'prl_sandbox_0000000000000000000000000000000A';
    await runCli(
      ['config', 'set', '--profile', 'other', '--api-key', unknownKey, '--base-url', server.baseUrl],
      env,
    );
    const result = await runCli(['status', '--profile', 'other'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The key came from profile "other": set PARLEY_API_KEY or run');
    expect(result.stderr).not.toContain('(profile "other")');
  });
});
