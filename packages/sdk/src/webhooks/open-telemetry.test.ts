import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { deliveryRequest, statusEvent, TEST_SECRET, testEvent } from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler } from './create-webhook-handler';
import type { WebhookHandlerOptions } from './webhook-handler-options';

// A real tracer provider and the context manager a Node app registers (what makes a span
// "active" across awaits): the handler's own spans must nest under the delivery's.
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'receiver-test',
);
const CONSUMER = 4;
const [UNSET, ERROR] = [0, 2];

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});
afterEach(() => {
  exporter.reset();
  vi.restoreAllMocks();
});

function tracedHandler(settings: Partial<WebhookHandlerOptions> = {}) {
  return createWebhookHandler({
    secret: TEST_SECRET,
    tracer,
    on: {
      'webhook.test': () => {
        // The user's own span, started with no context: its parent is whatever is active.
        tracer.startSpan('user work').end();
      },
    },
    ...settings,
  } as WebhookHandlerOptions);
}

/** The delivery spans (CONSUMER) finished so far. */
const deliverySpans = () => exporter.getFinishedSpans().filter((span) => span.kind === CONSUMER);

const processing = { 'messaging.system': 'parley', 'messaging.operation.type': 'process' };

describe('createWebhookHandler with a tracer', () => {
  it('runs a processed delivery inside a CONSUMER span, the handler’s spans nested under it', async () => {
    const event = testEvent();
    const response = await tracedHandler()(await deliveryRequest(event));
    expect(response.status).toBe(204);
    const [delivery] = deliverySpans() as [ReadableSpan];
    expect(deliverySpans()).toHaveLength(1);
    expect(delivery.name).toBe('process webhook.test');
    expect(delivery.attributes).toEqual({
      ...processing,
      'messaging.message.id': event.id,
      'parley.event.id': event.id,
      'parley.event.type': 'webhook.test',
      'parley.webhook.verification': 'verified',
      'parley.webhook.outcome': 'processed',
    });
    expect(delivery.status).toEqual({ code: UNSET });
    const work = exporter.getFinishedSpans().find((span) => span.name === 'user work');
    expect(work?.parentSpanContext?.spanId).toBe(delivery.spanContext().spanId);
    expect(work?.spanContext().traceId).toBe(delivery.spanContext().traceId);
  });

  it('marks a duplicate delivery and a stale status as such', async () => {
    const handler = tracedHandler({ on: { 'message.status_updated': () => {}, 'webhook.test': () => {} } });
    const event = testEvent();
    await handler(await deliveryRequest(event));
    await handler(await deliveryRequest(event));
    await handler(await deliveryRequest(statusEvent('delivered')));
    await handler(await deliveryRequest(statusEvent('sent')));
    expect(deliverySpans().map((span) => span.attributes['parley.webhook.outcome'])).toEqual([
      'processed',
      'duplicate',
      'processed',
      'stale_status',
    ]);
    expect(deliverySpans().map((span) => span.status.code)).toEqual([UNSET, UNSET, UNSET, UNSET]);
  });

  it('records what a throwing handler threw, with the outcome failed and an error status', async () => {
    const onError = vi.fn();
    const handler = tracedHandler({
      onError,
      on: {
        'webhook.test': () => {
          throw new RangeError('boom');
        },
      },
    });
    const event = testEvent();
    expect((await handler(await deliveryRequest(event))).status).toBe(500);
    const [delivery] = deliverySpans() as [ReadableSpan];
    expect(delivery.attributes).toMatchObject({
      'parley.event.id': event.id,
      'parley.webhook.verification': 'verified',
      'parley.webhook.outcome': 'failed',
    });
    expect(delivery.status).toEqual({ code: ERROR, message: 'handler_failed' });
    expect(delivery.events.map((recorded) => [recorded.name, recorded.attributes])).toEqual([
      ['exception', expect.objectContaining({ 'exception.type': 'RangeError', 'exception.message': 'boom' })],
    ]);
    expect(onError).toHaveBeenCalledOnce();
  });

  it('names a refused delivery by why it was refused, with no event and no outcome', async () => {
    const response = await tracedHandler()(await deliveryRequest(testEvent(), `whsec_${'x'.repeat(32)}`));
    expect(response.status).toBe(400);
    const [delivery] = deliverySpans() as [ReadableSpan];
    expect(delivery.name).toBe('process parley.webhook');
    expect(delivery.attributes).toEqual({
      ...processing,
      'parley.webhook.verification': 'signature_mismatch',
    });
    expect(delivery.status).toEqual({ code: ERROR, message: 'signature_mismatch' });
  });

  it('records nothing without a tracer', async () => {
    const handler = createWebhookHandler({ secret: TEST_SECRET, on: { 'webhook.test': () => {} } });
    expect((await handler(await deliveryRequest(testEvent()))).status).toBe(204);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
