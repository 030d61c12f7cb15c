import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFakeTime } from '../_test/fake-time';
import { recordingLogger } from '../_test/recording-logger';
import { errorReply, TEST_API_KEY, TEST_BASE_URL, useTestServer } from '../_test/test-server';
import { Parley } from '../client';
import { ConfigurationError } from '../errors/configuration-error';
import type { ParleyOptions } from './client-options';
import type { LogLevel } from './logger';

const server = useTestServer();
const textMessage = {
  type: 'text',
  connection_id: 'c0ffee00-0000-4000-8000-000000000001',
  to: '+33612345678',
  text: 'Bonjour',
} as const;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A send answered 503 then 202, on fake time with the smallest jitter: the first retry waits 250 ms. */
async function sendRetriedOnce(options: ParleyOptions) {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  server.on('POST', '/messages', errorReply('internal_error', { headers: { 'x-request-id': 'req_a' } }), {
    status: 202,
    body: { id: 'm1' },
    headers: { 'x-request-id': 'req_b' },
  });
  const { outcome } = await withFakeTime(() =>
    server
      .client(options)
      .messages.send(textMessage, { idempotencyKey: 'order-1' })
      .then((message) => message),
  );
  expect(outcome).toEqual({ status: 'fulfilled', value: { id: 'm1' } });
}

/** The lines without the attempts' durations: msw's own timers move fake time by a step or two. */
function withoutDurations(lines: string[]): string[] {
  return lines.map((line) => line.replace(/ durationMs=\d+/, ''));
}

const RETRIED =
  'debug parley: POST /v1/messages attempt=1 requestId="req_a" idempotencyKey="order-1" status=500 error="internal_error" delayMs=250';
const HOOK_FAILED = 'error parley: onRetry hook threw: metrics are down';
const CALL = 'info parley: POST /v1/messages attempt=2 requestId="req_b" idempotencyKey="order-1" status=202';

describe('log levels', () => {
  it.each([
    ['off', []],
    ['error', [HOOK_FAILED]],
    ['warn', [HOOK_FAILED]],
    ['info', [HOOK_FAILED, CALL]],
    ['debug', [RETRIED, HOOK_FAILED, CALL]],
  ] as [LogLevel, string[]][])(
    '%s writes exactly its lines and those of the levels before it',
    async (logLevel, expected) => {
      const { logger, lines } = recordingLogger();
      await sendRetriedOnce({
        logLevel,
        logger,
        onRetry: () => {
          throw new Error('metrics are down');
        },
      });
      expect(withoutDurations(lines)).toEqual(expected);
      for (const line of lines.filter((line) => !line.startsWith('error')))
        expect(line).toMatch(/ durationMs=\d+/);
    },
  );

  it('takes the level from PARLEY_LOG when the option is absent; the option wins over it', async () => {
    vi.stubEnv('PARLEY_LOG', 'debug');
    const fromEnv = recordingLogger();
    await sendRetriedOnce({ logger: fromEnv.logger });
    expect(withoutDurations(fromEnv.lines)).toEqual([RETRIED, CALL]);

    const fromOption = recordingLogger();
    await sendRetriedOnce({ logger: fromOption.logger, logLevel: 'info' });
    expect(withoutDurations(fromOption.lines)).toEqual([CALL]);
  });

  it('refuses an unknown level, naming the option and the variable', () => {
    const given = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL };
    expect(() => new Parley({ ...given, logLevel: 'verbose' as LogLevel })).toThrow(ConfigurationError);
    vi.stubEnv('PARLEY_LOG', 'DEBUG');
    expect(() => new Parley(given)).toThrow(
      '`logLevel` / PARLEY_LOG must be one of off error warn info debug',
    );
  });

  it('writes to console by default, and nothing at the default level warn', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    server.on('GET', '/status', { body: {}, headers: { 'x-request-id': 'req_c' } });
    await server.client().status.get();
    expect(info).not.toHaveBeenCalled();
    await server.client({ logLevel: 'info' }).status.get();
    expect(info.mock.calls).toEqual([
      [
        expect.stringMatching(
          /^parley: GET \/v1\/status attempt=1 requestId="req_c" status=200 durationMs=\d+$/,
        ),
      ],
    ]);
    expect(debug).not.toHaveBeenCalled();
  });

  it('quotes strings, so a value with spaces or a line break stays one field of one line', async () => {
    const { logger, lines } = recordingLogger();
    server.on('POST', '/messages', { status: 202, body: {}, headers: { 'x-request-id': 'req_d' } });
    await server
      .client({ logLevel: 'info', logger })
      .messages.send(textMessage, { idempotencyKey: 'a b="c"' });
    expect(lines).toEqual([
      expect.stringMatching(
        /^info parley: POST \/v1\/messages attempt=1 requestId="req_d" idempotencyKey="a b=\\"c\\"" status=202 durationMs=\d+$/,
      ),
    ]);
  });
});

describe('what is never logged', () => {
  it('keeps the API key and every body out of every line, at debug, through failures of every kind', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { logger, lines } = recordingLogger();
    const client = server.client({ logLevel: 'debug', logger, maxRetries: 1 });
    server.on(
      'POST',
      '/messages',
      { networkError: true },
      errorReply('validation_error', { message: 'SERVER-BODY-TEXT' }),
    );
    server.on('GET', '/status', { delayMs: 200, body: {} });
    server.on('GET', '/connections', errorReply('invalid_api_key', { message: `bad key ${TEST_API_KEY}` }));
    const failure = (call: () => PromiseLike<unknown>) =>
      withFakeTime(async () => {
        await call();
      });
    await failure(() => client.messages.send({ ...textMessage, text: 'CLIENT-BODY-TEXT' }));
    await failure(() => client.status.get({ timeout: 50 }));
    await failure(() => client.connections.list());
    for (const line of lines) {
      expect(line).not.toContain(TEST_API_KEY);
      expect(line).not.toContain('Bearer');
      expect(line).not.toContain('BODY-TEXT');
      expect(line).not.toContain('+33612345678');
    }
    expect(
      lines.map((line) =>
        line
          .replace(/durationMs=\d+/, 'durationMs=N')
          .replace(/ requestId="[^"]+"/, '')
          .replace(/delayMs=\d+/, 'delayMs=N')
          .replace(/idempotencyKey="[^"]+"/, 'idempotencyKey=K'),
      ),
    ).toEqual([
      'debug parley: POST /v1/messages attempt=1 idempotencyKey=K durationMs=N error="ConnectionError" delayMs=N',
      'info parley: POST /v1/messages attempt=2 idempotencyKey=K status=400 durationMs=N error="validation_error"',
      'debug parley: GET /v1/status attempt=1 durationMs=N error="TimeoutError" delayMs=N',
      'info parley: GET /v1/status attempt=2 durationMs=N error="TimeoutError"',
      'info parley: GET /v1/connections attempt=1 status=401 durationMs=N error="invalid_api_key"',
    ]);
  });
});
