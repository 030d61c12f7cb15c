import { createEmulator } from '@parley/emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { testContext } from '../_test/test-context';
import { status } from '../commands/status/index';
import {
  findLocalEmulator,
  LOCAL_EMULATOR_VALUES,
  PROBE_ORIGIN_VARIABLE,
  probeOrigin,
} from './local-emulator';
import { resolveCredentials } from './resolve-credentials';

const KEY = 'prl_sandbox_parleyEmulatorDefaultSandboxKey1';
const NO_CONFIG = { XDG_CONFIG_HOME: '/nonexistent-parley-local-emulator' };
const MISSING =
  'no API key or base URL, and no emulator answers at http://127.0.0.1:4010: pass --api-key and --base-url, set PARLEY_API_KEY and PARLEY_BASE_URL, or save them with `parley config set --profile default --api-key … --base-url …`. For a local emulator (`npx parley-emulator`): PARLEY_BASE_URL=http://127.0.0.1:4010/v1 PARLEY_API_KEY=prl_sandbox_parleyEmulatorDefaultSandboxKey1';

/** A fetch that answers every request with `body` (status 200, JSON) and keeps the URLs asked. */
function answering(body: string, status = 200) {
  const urls: string[] = [];
  const fetch = async (request: Request) => {
    urls.push(`${request.method} ${request.url}`);
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, urls };
}

/** A health answer of exactly `bytes` bytes. */
function healthOf(bytes: number): string {
  const bare = JSON.stringify({ ok: true, version: '0.1.0', pad: '' });
  return JSON.stringify({ ok: true, version: '0.1.0', pad: 'x'.repeat(bytes - bare.length) });
}

describe('the local emulator probe', () => {
  const emulator = createEmulator({ clock: 'frozen' });
  afterAll(() => emulator.close());

  it('probes the emulator default origin; a test may move it on loopback only', () => {
    expect(probeOrigin({})).toBe('http://127.0.0.1:4010');
    expect(probeOrigin({ [PROBE_ORIGIN_VARIABLE]: '' })).toBe('http://127.0.0.1:4010');
    expect(probeOrigin({ [PROBE_ORIGIN_VARIABLE]: 'http://127.0.0.1:4011' })).toBe('http://127.0.0.1:4011');
    expect(probeOrigin({ [PROBE_ORIGIN_VARIABLE]: 'http://[::1]:4011' })).toBe('http://[::1]:4011');
    for (const elsewhere of [
      'http://10.0.0.5:4010',
      'http://localhost:4010',
      'https://127.0.0.1:4010',
      'http://127.0.0.1:4010/v1',
      'http://127.0.0.1.example.com:4010',
      'off',
    ]) {
      expect(probeOrigin({ [PROBE_ORIGIN_VARIABLE]: elsewhere })).toBeUndefined();
    }
  });

  it('finds an emulator by its health answer, with its ready key and /v1 base URL', async () => {
    expect(LOCAL_EMULATOR_VALUES).toEqual({
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: emulator.sandboxKey,
    });
    const urls: string[] = [];
    const found = await findLocalEmulator({}, (request) => {
      urls.push(`${request.method} ${request.url}`);
      return emulator.fetch(request);
    });
    expect(found).toEqual({
      origin: 'http://127.0.0.1:4010',
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: KEY,
    });
    expect(urls).toEqual(['GET http://127.0.0.1:4010/_emulator/health']);
  });

  it('anything but an emulator health answer is no emulator', async () => {
    for (const [body, code] of [
      ['<!doctype html><title>my app</title>', 200],
      ['{"ok":false,"version":"0.1.0"}', 200],
      ['{"ok":true}', 200],
      ['null', 200],
      ['{"error":{"code":"not_found","message":"no"}}', 404],
    ] as const) {
      expect(await findLocalEmulator({}, answering(body, code).fetch)).toBeUndefined();
    }
    const refused = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
      });
    };
    expect(await findLocalEmulator({}, refused)).toBeUndefined();
    const elsewhere = answering(healthOf(100));
    expect(
      await findLocalEmulator({ [PROBE_ORIGIN_VARIABLE]: 'http://10.0.0.5:4010' }, elsewhere.fetch),
    ).toBeUndefined();
    expect(elsewhere.urls).toEqual([]);
  });

  it('a server that never answers is no emulator once the probe times out (1 s)', async () => {
    let aborted: unknown;
    const silent = (request: Request) =>
      new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => {
          aborted = request.signal.reason;
          reject(request.signal.reason);
        }),
      );
    expect(await findLocalEmulator({}, silent)).toBeUndefined();
    expect(aborted).toMatchObject({ name: 'TimeoutError' });
  });

  it('reads at most 16 KiB of the answer: at the limit it is read, one byte past it is no emulator', async () => {
    expect(await findLocalEmulator({}, answering(healthOf(16 * 1024)).fetch)).toMatchObject({ apiKey: KEY });
    expect(await findLocalEmulator({}, answering(healthOf(16 * 1024 + 1)).fetch)).toBeUndefined();
  });
});

describe('resolveCredentials with nothing set', () => {
  const emulator = createEmulator({ clock: 'frozen' });
  afterAll(() => emulator.close());

  it('uses the emulator found, naming it as the source of both', async () => {
    expect(await resolveCredentials({}, NO_CONFIG, { fetch: (request) => emulator.fetch(request) })).toEqual({
      apiKey: KEY,
      baseUrl: 'http://127.0.0.1:4010/v1',
      profile: 'default',
      apiKeySource: 'the local emulator at http://127.0.0.1:4010',
      baseUrlSource: 'the local emulator at http://127.0.0.1:4010',
      localEmulator: 'http://127.0.0.1:4010',
    });
  });

  it('without one: exit 3 naming both variables with the emulator values', async () => {
    await expect(resolveCredentials({}, NO_CONFIG, answering('<html>', 200))).rejects.toMatchObject({
      code: 3,
      message: MISSING,
    });
  });

  it('a key or a base URL set anywhere: no probe, the old error', async () => {
    const probe = answering(healthOf(100));
    await expect(resolveCredentials({ apiKey: KEY }, NO_CONFIG, probe)).rejects.toMatchObject({
      code: 3,
      message: expect.stringMatching(/^no base URL: /),
    });
    await expect(
      resolveCredentials({}, { ...NO_CONFIG, PARLEY_BASE_URL: 'http://127.0.0.1:4010/v1' }, probe),
    ).rejects.toMatchObject({ code: 3, message: expect.stringMatching(/^no API key: /) });
    expect(probe.urls).toEqual([]);
  });

  it('a command says once on stderr which emulator it uses; --json stdout stays the data', async () => {
    const context = testContext({ env: NO_CONFIG, json: true, fetch: (request) => emulator.fetch(request) });
    const result = await status({}, context);
    expect(result.status).toMatchObject({ status: 'authenticated', environment: 'sandbox' });
    expect(context.stderr.text()).toBe('using the local emulator at http://127.0.0.1:4010\n');
    expect(context.stdout.text()).toBe('');
  });
});
