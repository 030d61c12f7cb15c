import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryConfigHome, testContext } from '../_test/test-context';
import { configList } from '../commands/config/list';
import { configSet } from '../commands/config/set';
import { configUse } from '../commands/config/use';
import { ExitError } from '../exit-error';
import { configPath } from './config-file';
import { maskKey } from './mask-key';
import { resolveCredentials } from './resolve-credentials';

const SANDBOX_KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const LIVE_KEY = 'prl_live_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654';

let home: { dir: string; cleanup: () => Promise<void> };
let env: Record<string, string | undefined>;
beforeEach(async () => {
  home = await temporaryConfigHome();
  env = { XDG_CONFIG_HOME: home.dir };
});
afterEach(() => home.cleanup());

describe('config profiles', () => {
  it('stores profiles in $XDG_CONFIG_HOME/parley/config.json readable by the owner only', async () => {
    const result = await configSet(
      { apiKey: SANDBOX_KEY, baseUrl: 'http://127.0.0.1:4010/v1/' },
      testContext({ env }),
    );
    const path = join(home.dir, 'parley', 'config.json');
    expect(result).toEqual({
      profile: 'default',
      path,
      api_key: 'prl_sandbox_…2345',
      base_url: 'http://127.0.0.1:4010/v1',
      current: true,
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      current_profile: 'default',
      profiles: { default: { api_key: SANDBOX_KEY, base_url: 'http://127.0.0.1:4010/v1' } },
    });
  });

  it('keeps mode 0600 when rewriting a file that was readable by others', async () => {
    const path = configPath(env);
    await mkdir(join(home.dir, 'parley'), { recursive: true });
    await writeFile(path, '{"profiles":{}}', { mode: 0o644 });
    await configSet({ apiKey: SANDBOX_KEY }, testContext({ env }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('lists profiles with masked keys only, marking the current one', async () => {
    await configSet({ apiKey: SANDBOX_KEY, baseUrl: 'http://127.0.0.1:4010/v1' }, testContext({ env }));
    await configSet({ profile: 'prod', apiKey: LIVE_KEY }, testContext({ env }));
    const context = testContext({ env });
    const profiles = await configList({}, context);
    expect(profiles).toEqual([
      { name: 'default', current: true, api_key: 'prl_sandbox_…2345', base_url: 'http://127.0.0.1:4010/v1' },
      { name: 'prod', current: false, api_key: 'prl_live_…7654', base_url: null },
    ]);
    expect(JSON.stringify(profiles)).not.toContain(SANDBOX_KEY);
  });

  it('switches the current profile with `config use`, and refuses an unknown one with exit 2', async () => {
    await configSet({ apiKey: SANDBOX_KEY }, testContext({ env }));
    await configSet({ profile: 'prod', apiKey: LIVE_KEY }, testContext({ env }));
    await configUse({ name: 'prod' }, testContext({ env }));
    expect((await configList({}, testContext({ env }))).find((profile) => profile.current)?.name).toBe(
      'prod',
    );
    const refusal = await configUse({ name: 'staging' }, testContext({ env })).catch((error) => error);
    expect(refusal).toBeInstanceOf(ExitError);
    expect(refusal.code).toBe(2);
    expect(refusal.message).toContain('known: default, prod');
  });

  it('refuses to save nothing, and a base URL that is not http(s)', async () => {
    await expect(configSet({}, testContext({ env }))).rejects.toMatchObject({ code: 2 });
    await expect(configSet({ baseUrl: 'ftp://x' }, testContext({ env }))).rejects.toMatchObject({ code: 2 });
  });

  it('reports a broken config file as a config error (exit 3) naming the file', async () => {
    await mkdir(join(home.dir, 'parley'), { recursive: true });
    await writeFile(configPath(env), '{not json');
    await expect(configList({}, testContext({ env }))).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining(configPath(env)),
    });
  });
});

describe('credential precedence: flag > env > profile', () => {
  beforeEach(async () => {
    await configSet({ apiKey: SANDBOX_KEY, baseUrl: 'http://127.0.0.1:4010/v1' }, testContext({ env }));
    await configSet(
      { profile: 'other', apiKey: LIVE_KEY, baseUrl: 'http://127.0.0.1:5000/v1' },
      testContext({ env }),
    );
  });

  it('takes the profile when nothing else is given', async () => {
    expect(await resolveCredentials({}, env)).toMatchObject({
      apiKey: SANDBOX_KEY,
      baseUrl: 'http://127.0.0.1:4010/v1',
      profile: 'default',
      apiKeySource: 'profile "default"',
    });
  });

  it('lets the environment override the profile, and a flag override both', async () => {
    const withEnv = { ...env, PARLEY_API_KEY: LIVE_KEY };
    expect(await resolveCredentials({}, withEnv)).toMatchObject({
      apiKey: LIVE_KEY,
      apiKeySource: 'PARLEY_API_KEY',
    });
    expect(await resolveCredentials({ apiKey: 'prl_sandbox_flag' }, withEnv)).toMatchObject({
      apiKey: 'prl_sandbox_flag',
      apiKeySource: '--api-key',
      baseUrl: 'http://127.0.0.1:4010/v1',
    });
  });

  it('selects the profile by --profile, then PARLEY_PROFILE', async () => {
    expect(await resolveCredentials({}, { ...env, PARLEY_PROFILE: 'other' })).toMatchObject({
      apiKey: LIVE_KEY,
      profile: 'other',
    });
    expect(
      await resolveCredentials({ profile: 'default' }, { ...env, PARLEY_PROFILE: 'other' }),
    ).toMatchObject({
      apiKey: SANDBOX_KEY,
    });
  });

  it('fails with exit 3 naming every way to give a missing value', async () => {
    const empty = { XDG_CONFIG_HOME: join(home.dir, 'nowhere') };
    await expect(resolveCredentials({}, empty)).rejects.toMatchObject({
      code: 3,
      message: expect.stringMatching(/--api-key.*PARLEY_API_KEY.*parley config set/),
    });
    await expect(resolveCredentials({ apiKey: SANDBOX_KEY }, empty)).rejects.toMatchObject({
      code: 3,
      message: expect.stringMatching(/--base-url.*PARLEY_BASE_URL/),
    });
    await expect(resolveCredentials({ profile: 'missing' }, env)).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining('no profile "missing"'),
    });
  });
});

describe('maskKey', () => {
  it('keeps the environment prefix and the last four characters only', () => {
    expect(maskKey(SANDBOX_KEY)).toBe('prl_sandbox_…2345');
    expect(maskKey(LIVE_KEY)).toBe('prl_live_…7654');
    expect(maskKey('short')).toBe('…');
    expect(maskKey('some-other-long-token-1234')).toBe('…1234');
  });
});
