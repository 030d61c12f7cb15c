import type { WebhookEvent } from '../wire/event';
import { type DeliveryTrace, type TraceableProcessor, traceDeliveries } from './_delivery-span';
import { eventShapeProblem } from './_event-shape';
import { ExpiringMap } from './_expiring-map';
import { queueByKey } from './_queue-by-key';
import { BodyTooLarge, byteLengthOf, DEFAULT_MAX_BODY_BYTES } from './_read-bounded';
import type { WebhookHeaders } from './_read-header';
import { isOrderedStatus, isStaleStatus } from './_status-order';
import type { WebhookOutcome } from './headers';
import { verifyWebhook } from './verify-webhook';
import type { WebhookHandlerOptions } from './webhook-handler-options';
import type { WebhookDedupeStore, WebhookStatusStore } from './webhook-stores';
import { isWebhookVerificationError } from './webhook-verification-error';

/**
 * The answer to a delivery: a status, the JSON body `{ error, message? }` when not 2xx, and what
 * was done with a verified one (sent as the `Parley-Webhook-Outcome` header).
 */
export interface DeliveryAnswer {
  status: number;
  error?: string;
  message?: string;
  outcome?: WebhookOutcome;
}

/**
 * Reads the raw body, at most `maxBytes` of it (else throws `BodyTooLarge`); called only for a
 * POST.
 */
export type ReadRawBody = (maxBytes: number) => Promise<string | Uint8Array>;

/** Processes one delivery and never rejects: every failure becomes an answer. */
export type DeliveryProcessor = (
  method: string,
  headers: WebhookHeaders,
  readBody: ReadRawBody,
) => Promise<DeliveryAnswer>;

// Parley retries a delivery for about 20.5 h (DESIGN §3): remembering ids and statuses for 24 h
// covers every retry of an event, and a newer status recorded after it was sent.
const REMEMBER_SECONDS = 86_400;
const acknowledged = (outcome: WebhookOutcome): DeliveryAnswer => ({ status: 204, outcome });

/** Reports an error answered 500, through `onError` or else `console.error`. */
export function errorReporter(
  options: WebhookHandlerOptions,
): (error: unknown, event?: WebhookEvent) => void {
  return (error, event) => {
    try {
      if (options.onError) return options.onError(error, event);
    } catch (loggingError) {
      console.error(loggingError);
    }
    console.error(
      event
        ? `Parley webhook ${event.type} ${event.id} failed; answered 500, Parley will retry it:`
        : 'Parley webhook answered 500:',
      error,
    );
  };
}

/**
 * The receiver's whole logic, shared by the web-standard handler and the Node listener: verify,
 * skip duplicates and stale statuses, run the handler, and record what was processed only once
 * the handler succeeded, so an event whose handler threw is processed when Parley retries it.
 */
export function deliveryProcessor(options: WebhookHandlerOptions): DeliveryProcessor {
  const { on, onUnhandled, dedupe = true, dropStaleStatuses = true } = options;
  const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError(
      `createWebhookHandler: maxBodyBytes must be a whole number of bytes ≥ 1, not ${maxBodyBytes}`,
    );
  }
  const processed: WebhookDedupeStore | false = dedupe === true ? memoryDedupeStore() : dedupe;
  const statuses: WebhookStatusStore | false =
    dropStaleStatuses === true ? new ExpiringMap() : dropStaleStatuses;
  const report = errorReporter(options);
  const oneAtATime = queueByKey();

  /** Your handler of `type`: only an own one of `on`, since `toString` is in every object. */
  const handlerOf = (type: string) =>
    (Object.hasOwn(on, type) ? on[type as keyof typeof on] : undefined) as
      | ((event: WebhookEvent) => unknown)
      | undefined;

  const route = async (event: WebhookEvent, trace?: DeliveryTrace): Promise<DeliveryAnswer> => {
    const handle = handlerOf(event.type) ?? onUnhandled;
    if (!handle) return acknowledged('unhandled');
    const message = event.type === 'message.status_updated' ? event.data.message : undefined;
    // One key per message for status events, so its statuses are handled one at a time.
    return oneAtATime(message?.id ?? event.id, async () => {
      if (processed && (await processed.has(event.id))) return acknowledged('duplicate');
      if (message && statuses && isStaleStatus(await statuses.get(message.id), message.status)) {
        return acknowledged('stale_status');
      }
      try {
        await handle(event);
      } catch (error) {
        trace?.failed(error);
        report(error, event);
        return { status: 500, error: 'handler_failed' };
      }
      if (processed) await processed.add(event.id, REMEMBER_SECONDS);
      if (message && statuses && isOrderedStatus(message.status)) {
        await statuses.set(message.id, message.status, REMEMBER_SECONDS);
      }
      return acknowledged('processed');
    });
  };

  const process: TraceableProcessor = async (method, headers, readBody, trace) => {
    if (method !== 'POST') return { status: 405 };
    let event: WebhookEvent;
    try {
      // A missing secret reaches verifyWebhook, whose TypeError is then answered 500 and reported:
      // throwing at creation would break builds that import the route without its environment.
      const secret = (options.secrets ?? options.secret)!;
      const { toleranceSeconds } = options;
      const body = await readBody(maxBodyBytes);
      if (byteLengthOf(body) > maxBodyBytes) throw new BodyTooLarge();
      event = await verifyWebhook(body, headers, secret, { toleranceSeconds });
    } catch (error) {
      if (error instanceof BodyTooLarge) return { status: 413, error: 'payload_too_large' };
      if (isWebhookVerificationError(error)) return { status: 400, error: error.reason };
      report(error);
      return { status: 500, error: 'internal_error' };
    }
    // Signed by the holder of the secret, yet not an event your handler could read: refused as a
    // body that is not JSON is, with what is wrong (only field names, never a value of the body).
    const malformed = eventShapeProblem(event);
    if (malformed) return { status: 400, error: 'invalid_payload', message: malformed };
    trace?.verified(event);
    return route(event, trace).catch((error: unknown) => {
      // A store failed, or reading `on` did (a getter): 500 so Parley retries rather than lose the event.
      report(error, event);
      return { status: 500, error: 'internal_error' };
    });
  };
  return options.tracer ? traceDeliveries(options.tracer, process) : process;
}

function memoryDedupeStore(): WebhookDedupeStore {
  const ids = new ExpiringMap<true>();
  return { has: (id) => ids.get(id) === true, add: (id, ttlSeconds) => ids.set(id, true, ttlSeconds) };
}
