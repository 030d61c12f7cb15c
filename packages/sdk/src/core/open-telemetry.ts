// The parts of the OpenTelemetry API the SDK calls, typed structurally: `@opentelemetry/api` is
// not a dependency, yet its `Tracer` and `Meter` (`trace.getTracer('my-app')`,
// `metrics.getMeter('my-app')`) fit these types (checked in open-telemetry.test-d.ts).

/** Attribute values as OpenTelemetry takes them; an undefined one is left out. */
export type OpenTelemetryAttributes = Record<string, string | number | boolean | undefined>;

/** A span's identity: what the W3C `traceparent` header carries. */
export interface OpenTelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string } | undefined;
}

/** An OpenTelemetry `Span`. */
export interface OpenTelemetrySpan {
  spanContext(): OpenTelemetrySpanContext;
  setAttribute(key: string, value: string | number | boolean): unknown;
  setAttributes(attributes: OpenTelemetryAttributes): unknown;
  /** `code`: 0 unset, 1 ok, 2 error (`SpanStatusCode`). */
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string, time?: number): unknown;
  updateName(name: string): unknown;
  /** `endTime`: milliseconds since the epoch. */
  end(endTime?: number): void;
}

/** An OpenTelemetry `Context`: the SDK only stores the parent span in one. */
export interface OpenTelemetryContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OpenTelemetryContext;
  deleteValue(key: symbol): OpenTelemetryContext;
}

/** Options of a new span; `kind`: 2 client, 4 consumer (`SpanKind`); `startTime`: ms since the epoch. */
export interface OpenTelemetrySpanOptions {
  kind?: number;
  attributes?: OpenTelemetryAttributes;
  startTime?: number;
}

/**
 * An OpenTelemetry `Tracer`, e.g. `trace.getTracer('my-app')` from `@opentelemetry/api`: with it,
 * every call is a `CLIENT` span with a child span per HTTP attempt (see docs/sdk.md), and each
 * webhook delivery a `CONSUMER` span.
 */
export interface OpenTelemetryTracer {
  startSpan(
    name: string,
    options?: OpenTelemetrySpanOptions,
    context?: OpenTelemetryContext,
  ): OpenTelemetrySpan;
  startActiveSpan<Run extends (span: OpenTelemetrySpan) => unknown>(
    name: string,
    options: OpenTelemetrySpanOptions,
    run: Run,
  ): ReturnType<Run>;
}

/** An OpenTelemetry `Histogram`. */
export interface OpenTelemetryHistogram {
  record(value: number, attributes?: OpenTelemetryAttributes): void;
}

/**
 * An OpenTelemetry `Meter`, e.g. `metrics.getMeter('my-app')`: with it, every HTTP attempt is
 * recorded in the `http.client.request.duration` histogram (seconds).
 */
export interface OpenTelemetryMeter {
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): OpenTelemetryHistogram;
}

/** The `tracer` and `meter` options, of a client and of a single call. */
export interface TelemetryOptions {
  /** Traces every call (a `CLIENT` span per call, a child per attempt) and sends `traceparent`. */
  tracer?: OpenTelemetryTracer | undefined;
  /** Records `http.client.request.duration` for every attempt. */
  meter?: OpenTelemetryMeter | undefined;
}
