import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { recordingLogger } from '../_test/recording-logger';
import { errorReply, TEST_API_KEY, TEST_BASE_URL, useTestServer } from '../_test/test-server';
import { Parley } from '../client';
import { APIUserAbortError } from '../errors/abort-error';
import { ConnectionError, TimeoutError } from '../errors/connection-error';
import type {
  OpenTelemetryAttributes,
  OpenTelemetryMeter,
  OpenTelemetrySpan,
  OpenTelemetrySpanContext,
  OpenTelemetryTracer,
} from './open-telemetry';

// A real tracer provider writing to the in-memory exporter: what an app's OpenTelemetry set-up
// records, span by span.
const server = useTestServer();
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'parley-test',
);
const CLIENT = 2;
const [UNSET, ERROR] = [0, 2];
const textMessage = {
  type: 'text',
  connection_id: 'c0ffee00-0000-4000-8000-000000000001',
  to: '+33612345678',
  text: 'Bonjour',
} as const;
const sent = { id: 'm1', object: 'message', status: 'queued' };
const status = { status: 'authenticated' };
const server4599 = { 'server.address': '127.0.0.1', 'server.port': 4599 };

afterEach(() => {
  exporter.reset();
  vi.restoreAllMocks();
});

/** The finished spans of one call: the call's span and its attempts' in order, each checked a child of it. */
function recordedCall(): { call: ReadableSpan; attempts: ReadableSpan[] } {
  const spans = exporter.getFinishedSpans();
  const calls = spans.filter((span) => span.parentSpanContext === undefined);
  expect(calls).toHaveLength(1);
  const call = calls[0]!;
  const attempts = spans.filter((span) => span !== call);
  for (const attempt of attempts) {
    expect(attempt.spanContext().traceId).toBe(call.spanContext().traceId);
    expect(attempt.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
  }
  return { call, attempts };
}

/** The `traceparent` a sampled span sends. */
const traceparentOf = (span: ReadableSpan) =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

const milliseconds = ([seconds, nanoseconds]: [number, number]) => seconds * 1000 + nanoseconds / 1e6;

/** A fetch that never answers, only rejecting when its request is aborted; records each request. */
function silentFetch(seen: Request[]) {
  return (input: string | URL | Request) => {
    const request = input as Request;
    seen.push(request);
    return new Promise<Response>((_, reject) =>
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }),
    );
  };
}

describe('a client with a tracer', () => {
  it('records a CLIENT span per call and a child per attempt, and sends its traceparent', async () => {
    server.on('GET', '/status', { body: status });
    const { requestId } = await server.client({ tracer }).status.get().withResponse();
    const { call, attempts } = recordedCall();
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts as [ReadableSpan];
    const answered = {
      'http.request.method': 'GET',
      ...server4599,
      'url.template': '/v1/status',
      'url.full': `${TEST_BASE_URL}/status`,
      'http.response.status_code': 200,
      'parley.request_id': requestId,
      'parley.rate_limit.remaining': 59,
    };
    for (const span of [call, attempt]) {
      expect(span.name).toBe('GET /v1/status');
      expect(span.kind).toBe(CLIENT);
      expect(span.attributes).toEqual(answered);
      expect(span.status).toEqual({ code: UNSET });
      expect(span.events).toEqual([]);
    }
    expect(requestId).toMatch(/^req_/);
    expect(server.requests[0]?.headers.get('traceparent')).toBe(traceparentOf(attempt));
    expect(server.requests[0]?.headers.get('tracestate')).toBeNull();
  });

  it('a retried 503: one span per attempt, each with its own traceparent, the retry counted', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const unavailable = errorReply('internal_error');
    server.on('POST', '/messages', { ...unavailable, status: 503 }, { status: 202, body: sent });
    const { outcome } = await withFakeTime(() =>
      server
        .client({ tracer })
        .messages.send(textMessage, { idempotencyKey: 'order-42' })
        .then((m) => m),
    );
    expect(outcome).toEqual({ status: 'fulfilled', value: sent });
    const { call, attempts } = recordedCall();
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts as [ReadableSpan, ReadableSpan];
    const common = {
      'http.request.method': 'POST',
      ...server4599,
      'url.template': '/v1/messages',
      'url.full': `${TEST_BASE_URL}/messages`,
      'parley.idempotency_key': 'order-42',
      'parley.rate_limit.remaining': 59,
    };
    expect(first.name).toBe('POST /v1/messages');
    expect(first.attributes).toEqual({
      ...common,
      'http.response.status_code': 503,
      'error.type': '503',
      'parley.request_id': unavailable.headers!['x-request-id'],
    });
    expect(first.status).toEqual({ code: ERROR });
    expect(second.attributes).toEqual({
      ...common,
      'http.request.resend_count': 1,
      'http.response.status_code': 202,
      'parley.request_id': expect.stringMatching(/^req_/),
    });
    expect(second.status).toEqual({ code: UNSET });
    expect(call.attributes).toEqual({ ...second.attributes });
    expect(call.status).toEqual({ code: UNSET });
    expect(server.requests.map((request) => request.headers.get('traceparent'))).toEqual(
      attempts.map(traceparentOf),
    );
  });

  it('a 429 with Retry-After: the first attempt ends when it failed, not after the 7 s wait', async () => {
    server.on(
      'GET',
      '/status',
      errorReply('rate_limited', { details: { bucket: 'requests' }, headers: { 'retry-after': '7' } }),
      { body: status },
    );
    const { outcome } = await withFakeTime(() =>
      server
        .client({ tracer })
        .status.get()
        .then((s) => s),
    );
    expect(outcome.status).toBe('fulfilled');
    const { call, attempts } = recordedCall();
    const [first, second] = attempts as [ReadableSpan, ReadableSpan];
    expect(first.attributes).toMatchObject({ 'http.response.status_code': 429, 'error.type': '429' });
    expect(first.status).toEqual({ code: ERROR });
    expect(second.attributes).toMatchObject({
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
    });
    expect(second.attributes['error.type']).toBeUndefined();
    expect(milliseconds(second.startTime) - milliseconds(first.endTime)).toBeGreaterThanOrEqual(7_000);
    expect(milliseconds(first.endTime) - milliseconds(first.startTime)).toBeLessThan(7_000);
    expect(call.status).toEqual({ code: UNSET });
    expect(server.requests.map((request) => request.headers.get('traceparent'))).toEqual(
      attempts.map(traceparentOf),
    );
  });

  it('a timeout: the attempt and the call are errors of type TimeoutError, the exception recorded', async () => {
    const seen: Request[] = [];
    const { outcome } = await withFakeTime(() =>
      server.client({ tracer, timeout: 1_000, maxRetries: 0, fetch: silentFetch(seen) }).status.get(),
    );
    const error = rejectionOf(outcome);
    expect(error).toBeInstanceOf(TimeoutError);
    const { call, attempts } = recordedCall();
    const [attempt] = attempts as [ReadableSpan];
    expect(attempts).toHaveLength(1);
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      ...server4599,
      'url.template': '/v1/status',
      'url.full': `${TEST_BASE_URL}/status`,
      'error.type': 'TimeoutError',
    });
    expect(attempt.status).toEqual({ code: ERROR });
    expect(call.attributes).toEqual({ ...attempt.attributes });
    expect(call.status).toEqual({ code: ERROR, message: (error as Error).message });
    expect(call.events.map((event) => [event.name, event.attributes?.['exception.type']])).toEqual([
      ['exception', 'TimeoutError'],
    ]);
    expect(seen[0]?.headers.get('traceparent')).toBe(traceparentOf(attempt));
  });

  it('a cancelled call is marked cancelled, its attempt ended as APIUserAbortError', async () => {
    const seen: Request[] = [];
    const controller = new AbortController();
    const client = server.client({
      tracer,
      fetch: (input) => {
        const answer = silentFetch(seen)(input);
        controller.abort('enough');
        return answer;
      },
    });
    await expect(client.messages.get('m1', { signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    const { call, attempts } = recordedCall();
    const [attempt] = attempts as [ReadableSpan];
    expect(attempt.name).toBe('GET /v1/messages/{id}');
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      ...server4599,
      'url.template': '/v1/messages/{id}',
      'url.full': `${TEST_BASE_URL}/messages/m1`,
      'error.type': 'APIUserAbortError',
    });
    expect(call.attributes).toEqual({ ...attempt.attributes, 'parley.cancelled': true });
    expect(call.status).toEqual({ code: ERROR, message: 'The operation was aborted by its signal' });
    expect(call.events.map((event) => event.attributes?.['exception.type'])).toEqual(['APIUserAbortError']);
    expect(seen[0]?.headers.get('traceparent')).toBe(traceparentOf(attempt));
  });

  it('a network error: the attempt and the call are errors of type ConnectionError', async () => {
    server.on('GET', '/connections', { networkError: true });
    const error = await server
      .client({ tracer, maxRetries: 0 })
      .connections.list({ limit: 5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    const { call, attempts } = recordedCall();
    const [attempt] = attempts as [ReadableSpan];
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      ...server4599,
      'url.template': '/v1/connections',
      'url.full': `${TEST_BASE_URL}/connections?limit=5`,
      'error.type': 'ConnectionError',
    });
    expect(call.attributes).toEqual({ ...attempt.attributes });
    expect(call.status.code).toBe(ERROR);
    expect(server.requests[0]?.headers.get('traceparent')).toBe(traceparentOf(attempt));
  });

  it('names a path with an id by its template, and a per-call tracer traces that call only', async () => {
    server.on('GET', '/connections/c%2F1/templates', {
      body: { object: 'list', data: [], has_more: false, next_cursor: null },
    });
    const client = server.client();
    await client.connections.listTemplates('c/1', {}, { tracer });
    await client.connections.listTemplates('c/1');
    const { call } = recordedCall();
    expect(call.name).toBe('GET /v1/connections/{id}/templates');
    expect(call.attributes['url.full']).toBe(`${TEST_BASE_URL}/connections/c%2F1/templates`);
    expect(server.requests.map((request) => request.headers.has('traceparent'))).toEqual([true, false]);
  });

  it('is a child of the span active when the call was made (a context manager registered)', async () => {
    server.on('GET', '/status', { body: status });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      await tracer.startActiveSpan('checkout', async (checkout) => {
        await server.client({ tracer }).status.get();
        checkout.end();
      });
    } finally {
      context.disable();
    }
    const spans = exporter.getFinishedSpans();
    const checkout = spans.find((span) => span.name === 'checkout')!;
    const call = spans.find((span) => span.parentSpanContext?.spanId === checkout.spanContext().spanId)!;
    expect(call.name).toBe('GET /v1/status');
    const attempts = spans.filter((span) => span.parentSpanContext?.spanId === call.spanContext().spanId);
    expect(attempts).toHaveLength(1);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('carries the attempt span ids on its log line', async () => {
    server.on('GET', '/status', { body: status });
    const { logger, lines } = recordingLogger();
    await server.client({ tracer, logLevel: 'info', logger }).status.get();
    const { attempts } = recordedCall();
    const { traceId, spanId } = attempts[0]!.spanContext();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info parley: GET \/v1\/status attempt=1 /);
    expect(lines[0]!.endsWith(` traceId="${traceId}" spanId="${spanId}"`)).toBe(true);
  });
});

/** A structural tracer whose every span has `context` (no OpenTelemetry package). */
function tracerWithIds(context: OpenTelemetrySpanContext): OpenTelemetryTracer {
  const span: OpenTelemetrySpan = {
    spanContext: () => context,
    setAttribute: () => span,
    setAttributes: () => span,
    setStatus: () => span,
    recordException: () => undefined,
    updateName: () => span,
    end: () => undefined,
  };
  return {
    startSpan: () => span,
    startActiveSpan: (_name, _options, run) => run(span) as ReturnType<typeof run>,
  };
}

describe('the traceparent an attempt sends (W3C Trace Context, version 00)', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const spanId = '00f067aa0ba902b7';

  it('carries the span ids, its flags as two hex digits, and its tracestate', async () => {
    server.on('GET', '/status', { body: status });
    const tracer = tracerWithIds({
      traceId,
      spanId,
      traceFlags: 0x101,
      traceState: { serialize: () => 'vendor=abc' },
    });
    await server.client({ tracer }).status.get();
    expect(server.requests[0]?.headers.get('traceparent')).toBe(`00-${traceId}-${spanId}-01`);
    expect(server.requests[0]?.headers.get('tracestate')).toBe('vendor=abc');
  });

  it.each([
    ['an all-zero trace id (a no-op tracer)', '0'.repeat(32), spanId],
    ['an all-zero span id', traceId, '0'.repeat(16)],
    ['a trace id one digit short', traceId.slice(1), spanId],
    ['a span id one digit long', traceId, `${spanId}0`],
    ['upper-case hex', traceId.toUpperCase(), spanId],
  ])('is not sent for %s, nor a tracestate', async (_case, badTraceId, badSpanId) => {
    server.on('GET', '/status', { body: status });
    const tracer = tracerWithIds({
      traceId: badTraceId,
      spanId: badSpanId,
      traceFlags: 1,
      traceState: { serialize: () => 'vendor=abc' },
    });
    await server.client({ tracer }).status.get();
    expect(server.requests[0]?.headers.has('traceparent')).toBe(false);
    expect(server.requests[0]?.headers.has('tracestate')).toBe(false);
  });
});

describe('url.full of a base URL with credentials', () => {
  it('is REDACTED:REDACTED on the call span, and the password is in no attribute', async () => {
    // fetch refuses to send such a URL, so the call fails before any attempt: the span records it.
    const client = new Parley({
      apiKey: TEST_API_KEY,
      baseUrl: 'http://someone:hunter2@127.0.0.1:4599/v1',
      tracer,
      maxRetries: 0,
    });
    await expect(client.status.get()).rejects.toThrow(TypeError);
    const [call] = exporter.getFinishedSpans();
    expect(call?.attributes['url.full']).toBe('http://REDACTED:REDACTED@127.0.0.1:4599/v1/status');
    expect(JSON.stringify(call?.attributes)).not.toContain('hunter2');
    expect(JSON.stringify(call?.attributes)).not.toContain('someone');
  });
});

describe('a client without a tracer', () => {
  it('sends no traceparent and logs no ids', async () => {
    server.on('GET', '/status', { body: status });
    const { logger, lines } = recordingLogger();
    await server.client({ logLevel: 'info', logger }).status.get();
    expect(server.requests[0]?.headers.has('traceparent')).toBe(false);
    expect(server.requests[0]?.headers.has('tracestate')).toBe(false);
    expect(lines[0]).not.toContain('traceId');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('a client with a meter', () => {
  it('records http.client.request.duration per attempt, in seconds, with the HTTP attributes', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const created: [string, unknown][] = [];
    const records: [number, OpenTelemetryAttributes | undefined][] = [];
    const meter: OpenTelemetryMeter = {
      createHistogram(name, options) {
        created.push([name, options]);
        return { record: (value, attributes) => void records.push([value, attributes]) };
      },
    };
    server.on('GET', '/status', { ...errorReply('internal_error'), status: 503 }, { body: status });
    const client = server.client({ meter });
    const { outcome } = await withFakeTime(() => client.status.get().then((s) => s));
    expect(outcome.status).toBe('fulfilled');
    await client.status.get();
    expect(created).toEqual([
      [
        'http.client.request.duration',
        {
          description: 'Duration of HTTP client requests.',
          unit: 's',
          advice: {
            explicitBucketBoundaries: [
              0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
            ],
          },
        },
      ],
    ]);
    const common = { 'http.request.method': 'GET', ...server4599, 'url.template': '/v1/status' };
    expect(records.map(([, attributes]) => attributes)).toEqual([
      { ...common, 'http.response.status_code': 503, 'error.type': '503' },
      { ...common, 'http.response.status_code': 200, 'error.type': undefined },
      { ...common, 'http.response.status_code': 200, 'error.type': undefined },
    ]);
    for (const [seconds] of records) expect(seconds).toBeGreaterThanOrEqual(0);
    // A meter alone traces nothing.
    expect(server.requests.some((request) => request.headers.has('traceparent'))).toBe(false);
  });
});
