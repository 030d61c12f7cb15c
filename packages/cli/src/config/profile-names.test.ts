// Profiles are own names (issue 21), through the built CLI: names that are also Object's own
// properties round-trip like any other, a name outside the rule is refused before anything is
// written, and a hand-written file with a field of the wrong type, or over 1 MiB, is a config
// error (exit 3) naming the file and the field.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, type HostileApi, runCli, startHostileApi } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const RULE = 'a profile name is 1 to 64 letters, digits, "_", "." or "-", and does not start with "." or "-"';
const FIX = 'fix it or delete it and run `parley config set`';
const MIB = 1024 * 1024;

let root: string;
let api: HostileApi;
beforeAll(async () => {
  assertCliBuilt();
  root = await mkdtemp(join(tmpdir(), 'parley-profile-names-'));
  // Stands for an emulator: `emulator clock` prints its `now`, so a run shows which base URL it used.
  api = await startHostileApi((field) => field);
});
afterAll(async () => {
  await api?.close();
  await rm(root, { recursive: true, force: true });
});

let homes = 0;
/** A fresh config home, with `content` as its config file when given. */
async function configHome(content?: string) {
  const home = join(root, String(++homes));
  const path = join(home, 'parley', 'config.json');
  await mkdir(join(home, 'parley'), { recursive: true });
  if (content !== undefined) await writeFile(path, content);
  return { env: { XDG_CONFIG_HOME: home }, path, file: async () => JSON.parse(await readFile(path, 'utf8')) };
}

describe('names that are also properties of every object are profiles like any other', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '%s: set, list, use, select with --profile, delete',
    async (name) => {
      const { env, path, file } = await configHome();
      expect(
        await runCli(['config', 'set', '--api-key', KEY, '--base-url', 'http://127.0.0.1:9/v1'], env),
      ).toEqual({
        code: 0,
        stdout: `Saved profile default in ${path} (key prl_sandbox_…2345)\n`,
        stderr: '',
      });
      expect(
        await runCli(['config', 'set', '--profile', name, '--api-key', KEY, '--base-url', api.baseUrl], env),
      ).toEqual({
        code: 0,
        stdout: `Saved profile ${name} in ${path} (key prl_sandbox_…2345)\nMake it the default with: parley config use ${name}\n`,
        stderr: '',
      });
      const saved = await file();
      expect(Object.keys(saved.profiles)).toEqual(['default', name]);
      expect(Object.getOwnPropertyDescriptor(saved.profiles, name)?.value).toEqual({
        api_key: KEY,
        base_url: api.baseUrl,
      });

      const list = await runCli(['config', 'list', '--json'], env);
      expect(JSON.parse(list.stdout)).toEqual([
        { name: 'default', current: true, api_key: 'prl_sandbox_…2345', base_url: 'http://127.0.0.1:9/v1' },
        { name, current: false, api_key: 'prl_sandbox_…2345', base_url: api.baseUrl },
      ]);

      const clock = await runCli(['emulator', 'clock', '--profile', name], env);
      expect(clock).toEqual({ code: 0, stdout: 'clock.now (real: follows the wall clock)\n', stderr: '' });

      expect(await runCli(['config', 'use', name], env)).toEqual({
        code: 0,
        stdout: `Now using profile ${name}\n`,
        stderr: '',
      });
      expect((await file()).current_profile).toBe(name);
      expect((await runCli(['emulator', 'clock'], env)).stdout).toBe(
        'clock.now (real: follows the wall clock)\n',
      );

      expect(await runCli(['config', 'delete', name], env)).toEqual({
        code: 0,
        stdout: `Deleted profile ${name}\nNo current profile now: choose one with \`parley config use default\`\n`,
        stderr: '',
      });
      expect(await file()).toEqual({
        profiles: { default: { api_key: KEY, base_url: 'http://127.0.0.1:9/v1' } },
      });
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'config use %s with no such profile is exit 2, and the file is left alone',
    async (name) => {
      const { env, path } = await configHome(`{"profiles":{"default":{"api_key":"${KEY}"}}}`);
      expect(await runCli(['config', 'use', name], env)).toEqual({
        code: 2,
        stdout: '',
        stderr: `Error: no profile "${name}" (known: default): create it with \`parley config set --profile ${name} --api-key …\`\n`,
      });
      expect(await readFile(path, 'utf8')).toBe(`{"profiles":{"default":{"api_key":"${KEY}"}}}`);
    },
  );

  it('a hand-written "__proto__" profile is read as a profile', async () => {
    const { env } = await configHome(
      `{"current_profile":"__proto__","profiles":{"__proto__":{"api_key":"${KEY}","base_url":"${api.baseUrl}"}}}`,
    );
    expect(JSON.parse((await runCli(['config', 'list', '--json'], env)).stdout)).toEqual([
      { name: '__proto__', current: true, api_key: 'prl_sandbox_…2345', base_url: api.baseUrl },
    ]);
    expect((await runCli(['emulator', 'clock'], env)).stdout).toBe(
      'clock.now (real: follows the wall clock)\n',
    );
  });
});

describe('a profile name outside the rule is refused (exit 2) before anything is written', () => {
  const longest = 'a'.repeat(64);
  it.each([
    ['a space', ['config', 'set', '--profile', 'bad name', '--api-key', KEY], '--profile', 'bad name'],
    [
      '65 characters',
      ['config', 'set', '--profile', 'a'.repeat(65), '--api-key', KEY],
      '--profile',
      'a'.repeat(65),
    ],
    ['the empty name', ['config', 'set', '--profile', '', '--api-key', KEY], '--profile', ''],
    ['a leading dot', ['config', 'set', '--profile', '.hidden', '--api-key', KEY], '--profile', '.hidden'],
    ['a slash', ['config', 'set', '--profile', 'a/b', '--api-key', KEY], '--profile', 'a/b'],
    [
      'an escape, on any command',
      ['status', '--profile', 'x\u001b[2J', '--api-key', KEY],
      '--profile',
      'x\\u001b[2J',
    ],
    ['config use', ['config', 'use', 'bad name'], 'NAME', 'bad name'],
    ['config delete', ['config', 'delete', 'bad name'], 'NAME', 'bad name'],
  ])('%s', async (_what, args, source, shown) => {
    const { env, path } = await configHome();
    expect(await runCli(args, { ...env, PARLEY_BASE_URL: api.baseUrl })).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: ${source} must be a profile name, not "${shown}": ${RULE}\n`,
    });
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('PARLEY_PROFILE is held to the same rule', async () => {
    const { env } = await configHome();
    expect(await runCli(['config', 'set', '--api-key', KEY], { ...env, PARLEY_PROFILE: 'bad name' })).toEqual(
      {
        code: 2,
        stdout: '',
        stderr: `Error: PARLEY_PROFILE must be a profile name, not "bad name": ${RULE}\n`,
      },
    );
  });

  it('64 characters is a name (65 is refused above); dots, dashes and underscores are allowed', async () => {
    const { env, file } = await configHome();
    expect((await runCli(['config', 'set', '--profile', longest, '--api-key', KEY], env)).code).toBe(0);
    expect(Object.keys((await file()).profiles)).toEqual([longest]);
    expect((await runCli(['config', 'use', 'Prod.eu-1_b'], env)).stderr).toContain(
      'no profile "Prod.eu-1_b"',
    );
  });
});

describe('a hand-written file with a field of the wrong type is a config error (exit 3)', () => {
  it.each([
    [`{"profiles":{"default":{"api_key":42}}}`, 'profiles.default.api_key must be a string (got number)'],
    [
      `{"profiles":{"default":{"base_url":true}}}`,
      'profiles.default.base_url must be a string (got boolean)',
    ],
    [`{"profiles":{"default":null}}`, 'profiles.default must be an object (got null)'],
    [`{"profiles":{"default":"x"}}`, 'profiles.default must be an object (got string)'],
    [`{"profiles":[]}`, 'profiles must be an object of profiles by name (got an array)'],
    [`{"profiles":"x"}`, 'profiles must be an object of profiles by name (got string)'],
    [`{"current_profile":7,"profiles":{}}`, 'current_profile must be a profile name (got number)'],
    [`{"current_profile":"a b","profiles":{}}`, `current_profile "a b" is not allowed: ${RULE}`],
    [`{"profiles":{"a b":{}}}`, `profile name "a b" is not allowed: ${RULE}`],
    [
      `{"profiles":{"default":{"listen_secrets":[]}}}`,
      'profiles.default.listen_secrets must be an object of secrets by URL (got an array)',
    ],
    [
      `{"profiles":{"default":{"listen_secrets":{"http://127.0.0.1:3000/":5}}}}`,
      'profiles.default.listen_secrets["http://127.0.0.1:3000/"] must be a string (got number)',
    ],
    ['[]', 'the file must be a JSON object (got an array)'],
    ['"x"', 'the file must be a JSON object (got string)'],
  ])('%s', async (content, problem) => {
    const { env, path } = await configHome(content);
    for (const args of [['config', 'list'], ['status']]) {
      expect(await runCli(args, env)).toEqual({
        code: 3,
        stdout: '',
        stderr: `Error: ${path}: ${problem}: ${FIX}\n`,
      });
    }
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('--json carries the same error as config_error', async () => {
    const { env, path } = await configHome(`{"profiles":{"default":{"api_key":42}}}`);
    const { code, stdout } = await runCli(['config', 'list', '--json'], env);
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        code: 'config_error',
        message: `${path}: profiles.default.api_key must be a string (got number): ${FIX}`,
        request_id: null,
      },
    });
  });

  it('a profile keeps the fields it does not know when the file is rewritten', async () => {
    const { env, file } = await configHome(
      `{"profiles":{"default":{"api_key":"${KEY}","note":{"team":"a"}}}}`,
    );
    expect((await runCli(['config', 'set', '--base-url', api.baseUrl], env)).code).toBe(0);
    expect(await file()).toEqual({
      current_profile: 'default',
      profiles: { default: { api_key: KEY, note: { team: 'a' }, base_url: api.baseUrl } },
    });
  });
});

describe('the config file is read up to 1 MiB', () => {
  /** A valid config file of exactly `size` bytes: one profile, then spaces. */
  const fileOf = (size: number) => {
    const json = `{"profiles":{"default":{"api_key":"${KEY}"}}}`;
    return json.slice(0, -1) + ' '.repeat(size - json.length) + json.slice(-1);
  };

  it('1 MiB exactly is read', async () => {
    const { env } = await configHome(fileOf(MIB));
    const { code, stdout } = await runCli(['config', 'list', '--json'], env);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { name: 'default', current: true, api_key: 'prl_sandbox_…2345', base_url: null },
    ]);
  });

  it('1 MiB and one byte is a config error', async () => {
    const { env, path } = await configHome(fileOf(MIB + 1));
    expect(await runCli(['config', 'list'], env)).toEqual({
      code: 3,
      stdout: '',
      stderr: `Error: ${path} is over 1 MiB, which no config file is: ${FIX}\n`,
    });
  });
});
