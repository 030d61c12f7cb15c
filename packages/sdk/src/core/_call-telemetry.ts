// Loaded only when a call has a `tracer` or a `meter` (a dynamic import in _http-client.ts): an app
// that traces nothing never runs, and with a splitting bundler never downloads, this module.
// Written for size: a single-file bundle inlines it, and every byte here is one an app pays.
import type {
  OpenTelemetryContext,
  OpenTelemetryHistogram,
  OpenTelemetryMeter,
  OpenTelemetrySpanContext,
  TelemetryOptions,
} from './open-telemetry';
import type { RequestEvent } from './request-hooks';

// SpanKind.CLIENT and SpanStatusCode.ERROR are both 2.
const CLIENT = 2;
const ERROR = 2;
const histograms = new WeakMap<OpenTelemetryMeter, OpenTelemetryHistogram>();

/** One call's telemetry: its span, opened at creation, and one per attempt. */
export interface CallTelemetry {
  /** Opens attempt `number`'s span and sets its `traceparent` on `request`. */
  attempt(request: Request, number: number, started: number): AttemptTelemetry;
  /** Closes the call's span: `error` is what the call rejected with, `last` its last attempt. */
  end(error: unknown, last: RequestEvent | undefined): void;
}

/** One attempt's telemetry. */
export interface AttemptTelemetry {
  /** The attempt span's ids, for the log line; undefined without a tracer. */
  ids: { traceId: string; spanId: string } | undefined;
  /** Closes the attempt (its span, its duration) as the call's hooks saw it end, at `ended` (ms). */
  end(event: RequestEvent, ended: number): void;
}

/**
 * The telemetry of a call of `method` to `input` under `baseUrl`, following the stable HTTP
 * client semantic conventions: spans named `{method} {url.template}`, e.g. `GET /v1/messages/{id}`.
 */
export function callTelemetry(
  { tracer, meter }: TelemetryOptions,
  method: string,
  baseUrl: string,
  input: string,
): CallTelemetry {
  const base = new URL(baseUrl);
  // `url.full` without credentials, as the conventions ask: only the base can hold any, since
  // fetch refuses to send a URL with credentials (a request's own URL never has them).
  if (base.username) base.username = 'REDACTED';
  if (base.password) base.password = 'REDACTED';
  const template = `${base.pathname.replace(/\/$/, '')}/${input.replace(/^(messages|connections)\/[^/?]+/, '$1/{id}')}`;
  const common = {
    'http.request.method': method,
    'server.address': base.hostname,
    'server.port': Number(base.port) || (base.protocol === 'https:' ? 443 : 80),
    'url.template': template,
  };
  // The call's span and each attempt's (a child of it) differ only in these.
  const startSpan = (url: string, startTime: number, context?: OpenTelemetryContext) =>
    tracer!.startSpan(
      `${method} ${template}`,
      { kind: CLIENT, startTime, attributes: { ...common, 'url.full': url } },
      context,
    );
  const callSpan = tracer && startSpan(`${base.href.replace(/\/$/, '')}/${input}`, Date.now());
  let histogram = meter && histograms.get(meter);
  if (meter && !histogram) {
    histogram = meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      // The bucket boundaries the HTTP semantic conventions advise for this histogram, in seconds.
      advice: {
        explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
      },
    });
    histograms.set(meter, histogram);
  }

  return {
    attempt(request, number, started) {
      if (number === 1) callSpan?.setAttribute('url.full', request.url);
      const span =
        callSpan &&
        startSpan(
          request.url,
          started,
          new SpanContext([[Symbol.for('OpenTelemetry Context Key SPAN'), callSpan]]),
        );
      const { traceId, spanId, traceFlags, traceState } =
        span?.spanContext() ?? ({} as Partial<OpenTelemetrySpanContext>);
      // W3C Trace Context, version 00. A no-op tracer's span (all-zero ids) sends nothing.
      if (/^(?!0+-)[\da-f]{32}-(?!0+$)[\da-f]{16}$/.test(`${traceId}-${spanId}`)) {
        request.headers.set(
          'traceparent',
          `00-${traceId}-${spanId}-${(traceFlags! & 255).toString(16).padStart(2, '0')}`,
        );
        const state = traceState?.serialize();
        if (state) request.headers.set('tracestate', state);
        else request.headers.delete('tracestate');
      }
      return {
        ids: span && { traceId: traceId!, spanId: spanId! },
        end(event, ended) {
          const { status, error } = event;
          // `error.type`: the status code of a failed answer, else the error's class (no answer).
          const outcome = {
            'http.response.status_code': status,
            'error.type': status! >= 400 ? `${status}` : error,
          };
          histogram?.record((ended - started) / 1000, { ...common, ...outcome });
          if (span) {
            span.setAttributes({ ...outcome, ...endAttributes(event) });
            if (outcome['error.type']) span.setStatus({ code: ERROR });
            span.end(ended);
          }
        },
      };
    },
    end(error, last) {
      if (!callSpan) return;
      callSpan.setAttributes({ 'http.response.status_code': last?.status, ...(last && endAttributes(last)) });
      if (error !== undefined) {
        const { name, message } = error as Error;
        callSpan.setAttribute('error.type', `${name}`);
        // By name, not the guard: importing it would split the errors into a chunk of their own.
        if (name === 'APIUserAbortError') callSpan.setAttribute('parley.cancelled', true);
        callSpan.recordException(error as Error);
        callSpan.setStatus({ code: ERROR, message: `${message}` });
      }
      callSpan.end();
    },
  };
}

/** What an attempt's span, and the call's from its last attempt, end with besides the status. */
function endAttributes({ attempt, requestId, idempotencyKey, rateLimit }: RequestEvent) {
  return {
    'http.request.resend_count': attempt > 1 ? attempt - 1 : undefined,
    'parley.request_id': requestId,
    'parley.idempotency_key': idempotencyKey,
    'parley.rate_limit.remaining': rateLimit?.remaining,
  };
}

/**
 * A context for a child's `startSpan`, holding its parent under the key `trace.setSpan` of
 * `@opentelemetry/api` uses (a registry symbol any copy of the API reads): without the API the SDK
 * cannot read the active context, and a child needs only its parent. A Map underneath, so each
 * change is a copy (4 B gzip less in `{ Parley }` than a closure per context).
 */
class SpanContext extends Map<symbol, unknown> implements OpenTelemetryContext {
  getValue(key: symbol): unknown {
    return this.get(key);
  }
  setValue(key: symbol, value: unknown): SpanContext {
    return new SpanContext(this).set(key, value);
  }
  deleteValue(key: symbol): SpanContext {
    const copy = new SpanContext(this);
    copy.delete(key);
    return copy;
  }
}
