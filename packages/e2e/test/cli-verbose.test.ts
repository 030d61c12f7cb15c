// `parley --verbose` and PARLEY_LOG as a real process: the SDK's log on stderr, stdout untouched.
// A proxy in front of the emulator answers a send with a 503 when told to, so the log shows a retry.
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FailingProxy, startFailingProxy } from './_failing-proxy';

let server: EmulatorServer;
let proxy: FailingProxy;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  proxy = await startFailingProxy(new URL(server.baseUrl).origin);
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: proxy.baseUrl,
    XDG_CONFIG_HOME: '/nonexistent',
  };
});

afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

beforeEach(async () => {
  await createControlClient({ baseUrl: server.url }).reset();
});

/** The SDK's lines on stderr, with timings as N. */
function sdkLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('parley: '))
    .map((line) => line.replace(/durationMs=\d+/, 'durationMs=N').replace(/delayMs=\d+/, 'delayMs=N'));
}

const send = [
  'send',
  '--connection',
  SANDBOX_ACTIVE_CONNECTION_ID,
  '--to',
  '+15550123456',
  '--text',
  'Bonjour',
  '--idempotency-key',
  'order-7',
];

describe('parley --verbose', () => {
  it('send --verbose shows each attempt on stderr: the 503, its wait, the retry with the same key', async () => {
    proxy.failNextSend();
    const { code, stdout, stderr } = await runCli([...send, '--json', '--verbose'], env);
    expect(code).toBe(0);
    const message = JSON.parse(stdout) as { id: string; status: string };
    expect(message.status).toBe('queued');
    expect(sdkLines(stderr)).toEqual([
      `parley: POST /v1/messages attempt=1 requestId="${proxy.requestId}" idempotencyKey="order-7" status=503 durationMs=N error="internal_error" delayMs=N`,
      expect.stringMatching(
        /^parley: POST \/v1\/messages attempt=2 requestId="req_[0-9a-f]{32}" idempotencyKey="order-7" status=202 durationMs=N$/,
      ),
    ]);
    expect(stderr).not.toContain(server.sandboxKey);
    expect(stderr).not.toContain('Bonjour');
  });

  it('PARLEY_LOG=debug does the same, and stdout keeps only the JSON', async () => {
    const { code, stdout, stderr } = await runCli(['status', '--json'], { ...env, PARLEY_LOG: 'debug' });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'authenticated', environment: 'sandbox' });
    expect(sdkLines(stderr)).toEqual([
      expect.stringMatching(
        /^parley: GET \/v1\/status attempt=1 requestId="req_[0-9a-f]{32}" status=200 durationMs=N$/,
      ),
    ]);
    expect(stderr).toBe(`${stderr.split('\n')[0]}\n`);
  });

  it('logs nothing without --verbose or PARLEY_LOG', async () => {
    proxy.failNextSend();
    const { code, stderr } = await runCli([...send, '--json'], env);
    expect(code).toBe(0);
    expect(sdkLines(stderr)).toEqual([]);
  });

  it('refuses an unknown PARLEY_LOG as a configuration error', async () => {
    const { code, stderr } = await runCli(['status'], { ...env, PARLEY_LOG: 'loud' });
    expect(code).toBe(3);
    expect(stderr).toContain('PARLEY_LOG must be one of off error warn info debug');
  });
});
