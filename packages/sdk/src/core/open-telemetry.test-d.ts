import { type Meter, metrics, type Tracer, trace } from '@opentelemetry/api';
import { describe, expectTypeOf, it } from 'vitest';
import { Parley } from '../client';
import { createWebhookHandler } from '../webhooks/create-webhook-handler';
import type { OpenTelemetryMeter, OpenTelemetryTracer } from './open-telemetry';

// The SDK types OpenTelemetry structurally: what users pass, @opentelemetry/api's own Tracer
// and Meter, must fit without a cast.
describe('the OpenTelemetry options', () => {
  it('take @opentelemetry/api’s Tracer and Meter as they are', () => {
    expectTypeOf<Tracer>().toExtend<OpenTelemetryTracer>();
    expectTypeOf<Meter>().toExtend<OpenTelemetryMeter>();
    const tracer = trace.getTracer('my-app');
    const meter = metrics.getMeter('my-app');
    const parley = new Parley({ tracer, meter });
    parley.status.get({ tracer });
    parley.withOptions({ tracer: undefined });
    createWebhookHandler({ secret: 'whsec_x', on: {}, tracer });
  });
});
