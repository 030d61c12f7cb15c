// Zero set-up (issue 24): after `npx parley-emulator`, `npx parley status` works with nothing set.
// The built CLI looks for an emulator only when no flag, variable or profile names a key or base
// URL. Port 4010 is not the test's to own (the root demo test holds it), so the probed origin
// moves to a port of the test's through the CLI's internal PARLEY_TEST_LOCAL_EMULATOR_ORIGIN; one
// test keeps the real default, with the process's fetch sending 127.0.0.1:4010 to the test's port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, closedPort, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const PROBE = 'PARLEY_TEST_LOCAL_EMULATOR_ORIGIN';
const NO_CONFIG = { XDG_CONFIG_HOME: '/nonexistent-parley-e2e-local-emulator' };

let emulator: EmulatorServer;
let origin: string;
/** A server that answers every request as an emulator's health would, counting them. */
let lookalike: Server;
let lookalikeOrigin: string;
let lookalikeRequests: string[] = [];

beforeAll(async () => {
  assertCliBuilt();
  emulator = await startEmulatorServer({ port: 0, clock: 'frozen' });
  origin = new URL(emulator.baseUrl).origin;
  lookalike = createServer((request, response) => {
    lookalikeRequests.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"version":"0.1.0"}');
  });
  await new Promise<void>((resolve) => lookalike.listen(0, '127.0.0.1', resolve));
  lookalikeOrigin = `http://127.0.0.1:${(lookalike.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator?.close();
  await new Promise((resolve) => lookalike?.close(resolve));
});
beforeEach(() => {
  lookalikeRequests = [];
});

describe('parley with nothing set, as a process', () => {
  it('an emulator answers: status uses it with its ready key, saying so once on stderr', async () => {
    const json = await runCli(['status', '--json'], { ...NO_CONFIG, [PROBE]: origin });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe(`using the local emulator at ${origin}\n`);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'authenticated',
      environment: 'sandbox',
      workspace_id: 'a7e1c0de-0000-4000-8000-000000000001',
    });
    const human = await runCli(['status'], { ...NO_CONFIG, [PROBE]: origin, NO_COLOR: '1' });
    expect(human.code).toBe(0);
    expect(human.stderr).toBe(`using the local emulator at ${origin}\n`);
    expect(human.stdout).toMatch(/^Status\s+authenticated$/m);
  });

  it('the real default: it probes http://127.0.0.1:4010 and uses its /v1 with the ready key', async () => {
    // The process's fetch sends what goes to 127.0.0.1:4010 to this test's emulator instead, so
    // the CLI runs with no override and the test owns no fixed port.
    const port = new URL(origin).port;
    const preload = `const real = globalThis.fetch;
      globalThis.fetch = (input, init) => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        if (url.origin !== 'http://127.0.0.1:4010') return real(request);
        process.stderr.write('fetched ' + request.method + ' ' + url.pathname + ' ' + (request.headers.get('authorization') ?? '-') + '\\n');
        url.port = '${port}';
        return real(new Request(url, request));
      };`;
    const result = await runCli(['status', '--json'], {
      ...NO_CONFIG,
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(preload)}`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      [
        'fetched GET /_emulator/health -',
        'using the local emulator at http://127.0.0.1:4010',
        'fetched GET /v1/status Bearer prl_sandbox_parleyEmulatorDefaultSandboxKey1',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'authenticated' });
  });

  it('nothing answers: exit 3 naming both variables and the emulator values', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['status'], { ...NO_CONFIG, [PROBE]: down });
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toBe(
      `Error: no API key or base URL, and no emulator answers at ${down}: pass --api-key and --base-url, set PARLEY_API_KEY and PARLEY_BASE_URL, or save them with \`parley config set --profile default --api-key … --base-url …\`. For a local emulator (\`npx parley-emulator\`): PARLEY_BASE_URL=http://127.0.0.1:4010/v1 PARLEY_API_KEY=prl_sandbox_parleyEmulatorDefaultSandboxKey1\n`,
    );
    const json = await runCli(['status', '--json'], { ...NO_CONFIG, [PROBE]: down });
    expect(json).toMatchObject({ code: 3, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'config_error',
        message: expect.stringContaining('PARLEY_API_KEY='),
        request_id: null,
      },
    });
  });

  it('a key, a base URL or both set: no request reaches the probed origin', async () => {
    const probed = { ...NO_CONFIG, [PROBE]: lookalikeOrigin };
    const both = await runCli(['status', '--json'], {
      ...probed,
      PARLEY_API_KEY: emulator.sandboxKey,
      PARLEY_BASE_URL: emulator.baseUrl,
    });
    expect(both).toMatchObject({ code: 0, stderr: '' });
    const keyOnly = await runCli(['status'], { ...probed, PARLEY_API_KEY: emulator.sandboxKey });
    expect(keyOnly.code).toBe(3);
    expect(keyOnly.stderr).toMatch(/^Error: no base URL: /);
    const baseUrlOnly = await runCli(['status'], { ...probed, PARLEY_BASE_URL: emulator.baseUrl });
    expect(baseUrlOnly.code).toBe(3);
    expect(baseUrlOnly.stderr).toMatch(/^Error: no API key: /);
    const flags = await runCli(
      ['status', '--api-key', emulator.sandboxKey, '--base-url', emulator.baseUrl],
      probed,
    );
    expect(flags).toMatchObject({ code: 0, stderr: '' });
    expect(lookalikeRequests).toEqual([]);
    // The same server is probed when nothing is set: the count above could have moved.
    const nothing = await runCli(['status'], probed);
    expect(nothing.code).toBe(1);
    expect(lookalikeRequests[0]).toBe('GET /_emulator/health');
  });
});
