// Loaded only when a call has a `tracer` or a `meter` (a dynamic import in _http-client.ts): an app
// that traces nothing never runs, and with a splitting bundler never downloads, this module.
import { contextWithSpan, setTraceHeaders } from './_trace-context';
import type {
  OpenTelemetryAttributes,
  OpenTelemetryHistogram,
  OpenTelemetryMeter,
  TelemetryOptions,
} from './open-telemetry';
import type { RequestEvent } from './request-hooks';

const CLIENT = 2; // SpanKind.CLIENT
const ERROR = 2; // SpanStatusCode.ERROR
// The bucket boundaries the HTTP semantic conventions advise for this histogram, in seconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
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
  const template = `${base.pathname.replace(/\/$/, '')}/${input.replace(/^(messages|connections)\/[^/?]+/, '$1/{id}')}`;
  const name = `${method} ${template}`;
  const common: OpenTelemetryAttributes = {
    'http.request.method': method,
    'server.address': base.hostname,
    'server.port': Number(base.port) || (base.protocol === 'https:' ? 443 : 80),
    'url.template': template,
  };
  const callSpan = tracer?.startSpan(name, {
    kind: CLIENT,
    attributes: { ...common, 'url.full': redacted(`${baseUrl}/${input}`) },
  });
  const histogram = meter && histogramOf(meter);

  return {
    attempt(request, number, started) {
      const full = redacted(request.url);
      if (number === 1) callSpan?.setAttribute('url.full', full);
      const span =
        callSpan &&
        tracer!.startSpan(
          name,
          {
            kind: CLIENT,
            startTime: started,
            attributes: {
              ...common,
              'url.full': full,
              'http.request.resend_count': number > 1 ? number - 1 : undefined,
            },
          },
          contextWithSpan(callSpan),
        );
      if (span) setTraceHeaders(request.headers, span);
      const context = span?.spanContext();
      return {
        ids: context && { traceId: context.traceId, spanId: context.spanId },
        end(event, ended) {
          const outcome = outcomeOf(event);
          histogram?.record((ended - started) / 1000, { ...common, ...outcome });
          if (!span) return;
          span.setAttributes({ ...outcome, ...parleyAttributes(event) });
          if (outcome['error.type'] !== undefined) span.setStatus({ code: ERROR });
          span.end(ended);
        },
      };
    },
    end(error, last) {
      if (!callSpan) return;
      callSpan.setAttributes({
        'http.response.status_code': last?.status,
        'http.request.resend_count': last && last.attempt > 1 ? last.attempt - 1 : undefined,
        ...(last && parleyAttributes(last)),
      });
      if (error !== undefined) {
        const { name: type, message } = error as Error;
        callSpan.setAttribute('error.type', String(type));
        // By name, not the guard: importing it would split the errors into a chunk of their own.
        if (type === 'APIUserAbortError') callSpan.setAttribute('parley.cancelled', true);
        callSpan.recordException(error as Error);
        callSpan.setStatus({ code: ERROR, message: String(message) });
      }
      callSpan.end();
    },
  };
}

/** The status an attempt got and, when it failed, `error.type`: the status code, else the error's class. */
function outcomeOf({ status, error }: RequestEvent): OpenTelemetryAttributes {
  return {
    'http.response.status_code': status,
    'error.type': status !== undefined && status >= 400 ? String(status) : error,
  };
}

function parleyAttributes({ requestId, idempotencyKey, rateLimit }: RequestEvent): OpenTelemetryAttributes {
  return {
    'parley.request_id': requestId,
    'parley.idempotency_key': idempotencyKey,
    'parley.rate_limit.remaining': rateLimit?.remaining,
  };
}

/** The URL without credentials (spec of `url.full`); the API key is a header, never in a URL. */
function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.username) parsed.username = 'REDACTED';
  if (parsed.password) parsed.password = 'REDACTED';
  return parsed.href;
}

function histogramOf(meter: OpenTelemetryMeter): OpenTelemetryHistogram {
  let histogram = histograms.get(meter);
  if (!histogram) {
    histogram = meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    histograms.set(meter, histogram);
  }
  return histogram;
}
