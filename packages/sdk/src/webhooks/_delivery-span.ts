import type { OpenTelemetrySpan, OpenTelemetryTracer } from '../core/open-telemetry';
import type { WebhookEvent } from '../wire/event';
import type { DeliveryAnswer, DeliveryProcessor, ReadRawBody } from './_process-delivery';
import type { WebhookHeaders } from './_read-header';

const CONSUMER = 4; // SpanKind.CONSUMER
const ERROR = 2; // SpanStatusCode.ERROR

/** What the processor tells the delivery's span as it goes: the verified event, a handler's error. */
export interface DeliveryTrace {
  verified(event: WebhookEvent): void;
  failed(error: unknown): void;
}

/** The delivery processor, with a {@link DeliveryTrace} when it runs under a span. */
export type TraceableProcessor = (
  method: string,
  headers: WebhookHeaders,
  readBody: ReadRawBody,
  trace?: DeliveryTrace,
) => Promise<DeliveryAnswer>;

/**
 * Runs each delivery inside an active `CONSUMER` span, so the handler's own spans nest under it:
 * named `process {event type}` once verified (`process parley.webhook` before), with the event's
 * id and type, `parley.webhook.verification` (`verified` or why not) and `parley.webhook.outcome`
 * (processed, duplicate, stale_status, unhandled or failed). An answer of 400 or more is an error.
 */
export function traceDeliveries(tracer: OpenTelemetryTracer, process: TraceableProcessor): DeliveryProcessor {
  return (method, headers, readBody) =>
    tracer.startActiveSpan(
      'process parley.webhook',
      { kind: CONSUMER, attributes: { 'messaging.system': 'parley', 'messaging.operation.type': 'process' } },
      async (span: OpenTelemetrySpan) => {
        let verified = false;
        try {
          const answer = await process(method, headers, readBody, {
            verified(event) {
              verified = true;
              span.updateName(`process ${event.type}`);
              span.setAttributes({
                'messaging.message.id': event.id,
                'parley.event.id': event.id,
                'parley.event.type': event.type,
              });
            },
            failed(error) {
              span.recordException(error instanceof Error ? error : String(error));
            },
          });
          const refused = answer.status === 400 || answer.status === 413;
          span.setAttributes({
            'parley.webhook.verification': verified ? 'verified' : refused ? answer.error : undefined,
            'parley.webhook.outcome':
              answer.outcome ?? (answer.error === 'handler_failed' ? 'failed' : undefined),
          });
          if (answer.status >= 400)
            span.setStatus({ code: ERROR, message: answer.error ?? String(answer.status) });
          return answer;
        } finally {
          span.end();
        }
      },
    );
}
