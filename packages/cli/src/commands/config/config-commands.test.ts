import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { temporaryConfigHome, testContext } from '../../_test/test-context';
import { configPath } from '../../config/config-file';
import { status } from '../status/index';
import { configDelete } from './delete';
import { configSet } from './set';
import { configUse } from './use';

const SANDBOX_KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const UNKNOWN_KEY = 'prl_sandbox_0000000000000000000000000000000A';

let home: { dir: string; cleanup: () => Promise<void> };
let env: Record<string, string | undefined>;
beforeEach(async () => {
  home = await temporaryConfigHome();
  env = { XDG_CONFIG_HOME: home.dir };
});
afterEach(() => home.cleanup());

describe('config set checks what it saves', () => {
  it('refuses a key of another shape (exit 2), showing it masked only', async () => {
    for (const apiKey of [
      'prl_sandbox_short',
      'sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      `${SANDBOX_KEY}x`,
    ]) {
      const refusal = await configSet({ apiKey }, testContext({ env })).catch((error) => error);
      expect(refusal).toMatchObject({ code: 2 });
      expect(refusal.message).toContain(
        '--api-key must be prl_sandbox_ or prl_live_ followed by 32 letters or digits',
      );
      expect(refusal.message).not.toContain(apiKey);
    }
  });

  it('wants a base URL ending in /v1, and suggests one', async () => {
    await expect(configSet({ baseUrl: 'http://127.0.0.1:4010' }, testContext({ env }))).rejects.toMatchObject(
      {
        code: 2,
        message: '--base-url must end in /v1: did you mean http://127.0.0.1:4010/v1?',
      },
    );
    await expect(
      configSet({ baseUrl: 'http://127.0.0.1:4010/v1/messages' }, testContext({ env })),
    ).rejects.toMatchObject({ message: expect.stringContaining('did you mean http://127.0.0.1:4010/v1?') });
    await expect(
      configSet({ baseUrl: 'https://api.example.test/parley' }, testContext({ env })),
    ).rejects.toMatchObject({
      message: expect.stringContaining('did you mean https://api.example.test/parley/v1?'),
    });
    expect(await configSet({ baseUrl: 'http://127.0.0.1:4010/v1/' }, testContext({ env }))).toMatchObject({
      base_url: 'http://127.0.0.1:4010/v1',
    });
  });
});

describe('config delete', () => {
  it('deletes a profile; deleting the current one leaves no current profile', async () => {
    await configSet({ apiKey: SANDBOX_KEY }, testContext({ env }));
    await configSet({ profile: 'staging', apiKey: SANDBOX_KEY }, testContext({ env }));
    expect(await configDelete({ name: 'staging' }, testContext({ env }))).toEqual({
      deleted: 'staging',
      current_profile: 'default',
      remaining: ['default'],
    });
    await configSet({ profile: 'other', apiKey: SANDBOX_KEY }, testContext({ env }));
    expect(await configDelete({ name: 'default' }, testContext({ env }))).toEqual({
      deleted: 'default',
      current_profile: null,
      remaining: ['other'],
    });
    expect(JSON.parse(await readFile(configPath(env), 'utf8'))).toEqual({
      profiles: { other: { api_key: SANDBOX_KEY } },
    });
    await configUse({ name: 'other' }, testContext({ env }));
  });

  it('refuses an unknown profile with exit 2, listing the known ones', async () => {
    await configSet({ apiKey: SANDBOX_KEY }, testContext({ env }));
    await expect(configDelete({ name: 'nope' }, testContext({ env }))).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('(known: default)'),
    });
  });
});

describe('a refused key names its profile once', () => {
  it('says `profile "other"` once when the key came from that profile', async () => {
    await configSet({ profile: 'other', apiKey: UNKNOWN_KEY }, testContext({ env }));
    const { emulator, context } = emulatorContext({}, { ...env, PARLEY_API_KEY: undefined });
    const failure = await status({ profile: 'other' }, context()).catch((error) => error);
    await emulator.close();
    expect(failure.code).toBe(1);
    expect(failure.message).toContain(
      'The key came from profile "other": set PARLEY_API_KEY or run `parley config set --profile other --api-key …`',
    );
    expect(failure.message).not.toContain('(profile "other")');
  });
});
