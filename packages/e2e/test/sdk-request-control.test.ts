import { createEmulator, type Emulator, SANDBOX_ACTIVE_CONNECTION_ID } from '@parley/emulator';
import {
  APIUserAbortError,
  ConfigurationError,
  Parley,
  type ParleyOptions,
  RateLimitError,
  type RequestEvent,
  type SendMessageParams,
  TimeoutError,
} from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Per-call options, cancellation, logging and hooks against the real emulator, in process, on
// a frozen clock. The bridge `fetch` counts what reaches the emulator and can hold a request.
const BASE_URL = 'http://127.0.0.1:4010/v1';
// 09:30:55 UTC: a templates window refused now opens again in exactly 5 s.
const START = Date.UTC(2026, 9, 14, 9, 30, 55);
let emulator: Emulator;

beforeEach(() => {
  emulator = createEmulator({ clock: 'frozen', now: START });
});

afterEach(async () => {
  vi.useRealTimers();
  await emulator.close();
});

/** A client on the emulator; `reached` lists the requests that got to it, `hold` keeps the next ones waiting. */
function bridged(options: ParleyOptions = {}) {
  const reached: Request[] = [];
  let held: Promise<void> | undefined;
  let release = () => {};
  const parley = new Parley({
    apiKey: emulator.sandboxKey,
    baseUrl: BASE_URL,
    // Like `emulator.fetch`, this ignores the request's signal: only the SDK can stop waiting.
    fetch: async (input, init) => {
      const request = new Request(input, init);
      reached.push(request);
      await held;
      return emulator.fetch(request);
    },
    ...options,
  });
  const hold = () => {
    held = new Promise((resolve) => {
      release = () => resolve();
    });
  };
  return { parley, reached, hold, release: () => release() };
}

/** A logger keeping `level line`, with each attempt's duration as `durationMs=N`. */
function lineLogger() {
  const lines: string[] = [];
  const keep = (level: string) => (line: string) => {
    lines.push(`${level} ${line.replace(/durationMs=\d+/, 'durationMs=N')}`);
  };
  return {
    lines,
    logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') },
  };
}

async function failure(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Spends the 10 calls a minute of the templates bucket. */
async function spendTemplatesWindow(parley: Parley): Promise<void> {
  for (let call = 0; call < 10; call++) await parley.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID);
}

/** Resolves once the SDK's retry wait is pending (fake timers); only real event-loop turns pass. */
async function untilRetryWaits(): Promise<void> {
  while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
}

const text: SendMessageParams = {
  type: 'text',
  connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
  to: '+15550123456',
  text: 'Bonjour',
};

describe('cancellation against the emulator', () => {
  it('a signal that already fired sends nothing', async () => {
    const { parley, reached } = bridged();
    const error = await failure(parley.messages.send(text, { signal: AbortSignal.abort('no') }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe('no');
    expect(reached).toEqual([]);
  });

  it('a signal during the request rejects at once, though the emulator has not answered', async () => {
    const { parley, reached, hold, release } = bridged();
    hold();
    const controller = new AbortController();
    const call = failure(parley.status.get({ signal: controller.signal }));
    while (reached.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('user left'));
    const error = await call;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    release();
    expect(reached).toHaveLength(1);
  });

  it('a signal during the Retry-After wait of a real 429 rejects at once; no further attempt follows', async () => {
    const onRequest = vi.fn();
    const { parley, reached } = bridged({ onRequest });
    await spendTemplatesWindow(parley);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const call = failure(
      parley.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID, {}, { signal: controller.signal }),
    );
    await untilRetryWaits();
    controller.abort();
    expect(await call).toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reached).toHaveLength(11);
    expect(onRequest).toHaveBeenCalledTimes(11);
  });

  it('a signal during messages.waitFor stops it between two polls', async () => {
    const { parley, reached } = bridged();
    const message = await parley.messages.send(text);
    const controller = new AbortController();
    const statuses: string[] = [];
    const error = await failure(
      parley.messages.waitFor(message.id, {
        until: 'delivered',
        pollInterval: 60_000,
        signal: controller.signal,
        onPoll: (seen) => {
          statuses.push(seen.status);
          controller.abort('stop waiting');
        },
      }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe('stop waiting');
    expect(statuses).toEqual(['queued']);
    expect(reached.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /v1/messages',
      `GET /v1/messages/${message.id}`,
    ]);
  });
});

describe('per-call options against the emulator', () => {
  it('a per-call timeout and maxRetries override the client ones', async () => {
    const { parley, reached, hold, release } = bridged({ timeout: 30_000, maxRetries: 2 });
    hold();
    const error = await failure(parley.status.get({ timeout: 50, maxRetries: 0 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(reached).toHaveLength(1);
    release();
    expect((await parley.status.get()).environment).toBe('sandbox');
  });

  it('maxRetries: 0 fails a real 429 at once where the client would wait Retry-After', async () => {
    const { parley, reached } = bridged();
    await spendTemplatesWindow(parley);
    const error = await failure(
      parley.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID, {}, { maxRetries: 0 }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 5_000, bucket: 'templates' });
    expect(reached).toHaveLength(11);
  });

  it('headers: defaults, per-call over them, null removes one, Authorization stays', async () => {
    const { parley, reached } = bridged({ defaultHeaders: { 'X-Tenant': 'acme', 'User-Agent': 'shop/2' } });
    await parley.status.get();
    await parley.status.get({ headers: { 'X-Tenant': 'globex', 'User-Agent': null } });
    const refused = await failure(parley.status.get({ headers: { Authorization: null } }));
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect(
      reached.map((request) => [request.headers.get('x-tenant'), request.headers.get('user-agent')]),
    ).toEqual([
      ['acme', 'shop/2'],
      ['globex', null],
    ]);
    expect(
      reached.every((request) => request.headers.get('authorization') === `Bearer ${emulator.sandboxKey}`),
    ).toBe(true);
  });

  it('withOptions gives an independent client', async () => {
    const first = bridged({ defaultHeaders: { 'X-Tenant': 'acme' } });
    const second = first.parley.withOptions({ defaultHeaders: { 'X-Tenant': 'globex' }, maxRetries: 0 });
    await second.status.get();
    await first.parley.status.get();
    expect(first.reached.map((request) => request.headers.get('x-tenant'))).toEqual(['globex', 'acme']);
  });
});

describe('observability against the emulator', () => {
  it('logs each attempt of a retried call at debug, with the real request ids, reason and wait', async () => {
    const { lines, logger } = lineLogger();
    const { parley } = bridged();
    await spendTemplatesWindow(parley);
    const debug = parley.withOptions({ logLevel: 'debug', logger });
    // Date too: the wait logged is the one measured, and the SDK's 5 s wait passes on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const call = debug.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID).withResponse();
    await untilRetryWaits();
    await emulator.control.advanceClock(5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    const { requestId } = await call;
    expect(lines).toEqual([
      expect.stringMatching(
        /^debug parley: GET \/v1\/connections\/[\w-]+\/templates attempt=1 requestId="req_[0-9a-f]{32}" status=429 durationMs=N error="rate_limited" delayMs=5000$/,
      ),
      `info parley: GET /v1/connections/${SANDBOX_ACTIVE_CONNECTION_ID}/templates attempt=2 requestId="${requestId}" status=200 durationMs=N`,
    ]);
  });

  it('logs one line per call at info, with the idempotency key of a send', async () => {
    const { lines, logger } = lineLogger();
    const { parley } = bridged({ logLevel: 'info', logger });
    const { requestId } = await parley.messages.send(text, { idempotencyKey: 'order-9' }).withResponse();
    expect(lines).toEqual([
      `info parley: POST /v1/messages attempt=1 requestId="${requestId}" idempotencyKey="order-9" status=202 durationMs=N`,
    ]);
  });

  it('hooks receive the real status, request id and rate-limit window', async () => {
    const events: RequestEvent[] = [];
    const { parley } = bridged({
      onRequest: (event) => events.push(event),
      onResponse: (event) => events.push(event),
    });
    const { requestId, rateLimit } = await parley.status.get().withResponse();
    const base = {
      method: 'GET',
      path: '/v1/status',
      attempt: 1,
      idempotencyKey: undefined,
      error: undefined,
      delayMs: undefined,
    };
    expect(events).toEqual([
      { ...base, requestId: undefined, status: undefined, durationMs: undefined, rateLimit: null },
      { ...base, requestId, status: 200, durationMs: expect.any(Number), rateLimit },
    ]);
    expect(rateLimit).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('never logs the API key, at debug, through successes, errors and aborts', async () => {
    const { lines, logger } = lineLogger();
    const { parley } = bridged({ logLevel: 'debug', logger, maxRetries: 0 });
    await parley.status.get();
    await parley.messages.send(text);
    await failure(parley.messages.get('00000000-0000-4000-8000-000000000000'));
    await spendTemplatesWindow(parley);
    await failure(parley.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID));
    await failure(parley.status.get({ signal: AbortSignal.abort() }));
    expect(lines).toHaveLength(14);
    for (const line of lines) {
      expect(line).not.toContain(emulator.sandboxKey);
      expect(line).not.toContain('Bearer');
      expect(line).not.toContain('Bonjour');
    }
  });
});
