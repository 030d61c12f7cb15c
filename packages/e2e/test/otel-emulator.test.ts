// Issue 28: the traceparent an SDK with a real OpenTelemetry tracer sends is what the emulator records
// on the request's activity item, over real sockets; `parley logs tail` as a process prints its trace id.

import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { assertCliBuilt, startCli } from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from './_console-browser';

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'parley-e2e',
);
const CLIENT = 2;
let server: EmulatorServer;

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});
afterAll(() => server?.close());
afterEach(() => exporter.reset());

interface RequestItem {
  request_id: string;
  path: string;
  traceparent: string | null;
  tracestate: string | null;
}

async function requestItems(): Promise<RequestItem[]> {
  const response = await fetch(new URL('/_emulator/activity?type=request&limit=50', server.baseUrl));
  return ((await response.json()) as { data: RequestItem[] }).data;
}

/** The attempt span of the one call made: the child of the call's span. */
function attemptSpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  const attempts = spans.filter((span) => span.parentSpanContext !== undefined);
  expect(attempts).toHaveLength(1);
  return attempts[0]!;
}

const parley = () =>
  new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, tracer, maxRetries: 0 });

describe('the emulator records the trace context an SDK with a tracer sends', () => {
  it("a call's activity item has the attempt span's traceparent; its request id is the span's parley.request_id", async () => {
    const listed = await parley().connections.list();
    expect(listed.data.length).toBeGreaterThan(0);
    const attempt = attemptSpan();
    expect(attempt.name).toBe('GET /v1/connections');
    expect(attempt.kind).toBe(CLIENT);
    const { traceId, spanId } = attempt.spanContext();
    const requestId = attempt.attributes['parley.request_id'];
    const item = (await requestItems()).find((candidate) => candidate.request_id === requestId);
    expect(item).toMatchObject({
      path: '/v1/connections',
      traceparent: `00-${traceId}-${spanId}-01`,
      tracestate: null,
    });
  });

  it('a malformed traceparent is recorded as null, its tracestate too; a valid one with a tracestate keeps both', async () => {
    const call = async (headers: Record<string, string>) => {
      const response = await fetch(new URL('/v1/status', server.baseUrl), {
        headers: { authorization: `Bearer ${server.sandboxKey}`, ...headers },
      });
      await response.body?.cancel();
      return response.headers.get('x-request-id');
    };
    const valid = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const ids = [
      await call({ traceparent: `${valid}0`, tracestate: 'rojo=1' }),
      await call({ traceparent: valid.replace('00f0', '00F0'), tracestate: 'rojo=1' }),
      await call({ traceparent: valid, tracestate: 'rojo=1,congo=2' }),
      await call({ traceparent: valid, tracestate: 'not a list' }),
    ];
    const items = await requestItems();
    expect(
      ids
        .map((id) => items.find((item) => item.request_id === id))
        .map((item) => [item?.traceparent, item?.tracestate]),
    ).toEqual([
      [null, null],
      [null, null],
      [valid, 'rojo=1,congo=2'],
      [valid, null],
    ]);
  });

  it('`parley logs tail` prints the trace id on the request line', async () => {
    assertCliBuilt();
    const tail = startCli(['logs', 'tail', '--path', '/v1/connections'], {
      PARLEY_BASE_URL: server.baseUrl,
      XDG_CONFIG_HOME: '/nonexistent',
    });
    try {
      await tail.waitFor('Following the activity of');
      await parley().connections.list();
      const { traceId } = attemptSpan().spanContext();
      await tail.waitFor(`trace ${traceId}`);
      expect(tail.stdout().trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^\\d\\d:\\d\\d:\\d\\d {2}request {3}GET /v1/connections → 200 {2}[\\d.]+ ms {2}req_[0-9a-f]{32} {2}prl_sandbox_\\w{4}… {2}trace ${traceId}$`,
          ),
        ),
      ]);
    } finally {
      tail.child.kill('SIGINT');
      await tail.exited;
    }
  });
});

describe.runIf(runBrowserTests)('the console shows the trace id', { timeout: 90_000 }, () => {
  it('in the timeline detail of a traced request, and none for an untraced one', async () => {
    await parley().connections.list();
    const { traceId } = attemptSpan().spanContext();
    const untraced = await fetch(new URL('/v1/status', server.baseUrl), {
      headers: { authorization: `Bearer ${server.sandboxKey}` },
    });
    await untraced.body?.cancel();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.consoleUrl}#view=timeline`);
      await page.getByLabel('Type').selectOption({ label: '/v1 requests' });
      const open = (text: string) =>
        page.locator('#timeline-list tr', { hasText: text }).first().getByRole('button').click();
      await open('GET /v1/connections → 200');
      await expect(page.locator('#timeline-detail .trace-id code').textContent()).resolves.toBe(traceId);
      await open('GET /v1/status → 200');
      await page.locator('#timeline-detail pre', { hasText: '"path": "/v1/status"' }).waitFor();
      expect(await page.locator('#timeline-detail .trace-id').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
