import type { OpenTelemetryContext, OpenTelemetrySpan } from './open-telemetry';

// The key under which @opentelemetry/api keeps a context's span (`trace.setSpan`): a registry
// symbol, so a context built here is read by any copy of the API as one holding `span`.
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const INVALID_ID = /^0+$/;

/**
 * A context whose span is `span`, for a child's `startSpan`. It holds nothing else: without
 * `@opentelemetry/api` the SDK cannot read the active one, and the child needs only its parent.
 */
export function contextWithSpan(span: OpenTelemetrySpan): OpenTelemetryContext {
  return contextOf(new Map([[SPAN_KEY, span]]));
}

function contextOf(values: ReadonlyMap<symbol, unknown>): OpenTelemetryContext {
  return {
    getValue: (key) => values.get(key),
    setValue: (key, value) => contextOf(new Map(values).set(key, value)),
    deleteValue: (key) => {
      const copy = new Map(values);
      copy.delete(key);
      return contextOf(copy);
    },
  };
}

/**
 * Sets the W3C Trace Context headers of `span` on `headers`: `traceparent` (version 00) and,
 * when the span has one, `tracestate`. A span of a no-op tracer (all-zero ids) sets nothing.
 */
export function setTraceHeaders(headers: Headers, span: OpenTelemetrySpan): void {
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  if (!/^[\da-f]{32}$/.test(traceId) || !/^[\da-f]{16}$/.test(spanId)) return;
  if (INVALID_ID.test(traceId) || INVALID_ID.test(spanId)) return;
  headers.set('traceparent', `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`);
  const state = traceState?.serialize();
  if (state) headers.set('tracestate', state);
  else headers.delete('tracestate');
}
