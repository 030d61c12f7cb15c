import type { OpenTelemetryTracer } from '../core/open-telemetry';
import type { WebhookEvent, WebhookEventType } from '../wire/event';
import type { WebhookDedupeStore, WebhookStatusStore } from './webhook-stores';

/**
 * Your work per event type: each handler receives its own event type, narrowed. A handler may be
 * async; the delivery is answered once it settles: 2xx when it succeeded, 500 (so Parley retries)
 * when it threw. Keep it short (Parley waits 15 s): hand long work to your own queue.
 */
export type WebhookEventHandlers = {
  [Type in WebhookEventType]?: ((event: Extract<WebhookEvent, { type: Type }>) => unknown) | undefined;
};

/** Every option of `createWebhookHandler` except the secret(s). */
export interface WebhookHandlerSettings {
  /** Handlers by event type: own properties only (a type named `toString` finds none), read at each delivery. */
  on: WebhookEventHandlers;
  /** Called for a verified event whose type has no handler in `on`; without it such events are only acknowledged. */
  onUnhandled?: ((event: WebhookEvent) => unknown) | undefined;
  /**
   * Called with every error answered 500: what a handler threw (with its event), or a set-up
   * error such as a missing secret or an already parsed body (event undefined). Default: `console.error`.
   */
  onError?: ((error: unknown, event: WebhookEvent | undefined) => void) | undefined;
  /**
   * Skip events already processed (by event id): `true` (default) remembers 10,000 ids for 24 h in
   * memory; pass a shared {@link WebhookDedupeStore} when several instances receive; `false` turns it off.
   */
  dedupe?: boolean | WebhookDedupeStore | undefined;
  /**
   * Acknowledge without handling a `message.status_updated` whose status is not newer than one
   * already processed for its message (queued < sent < delivered < read; `failed` is final).
   * `true` (default) remembers 10,000 messages for 24 h in memory; pass a shared
   * {@link WebhookStatusStore} when several instances receive; `false` turns it off.
   */
  dropStaleStatuses?: boolean | WebhookStatusStore | undefined;
  /** Largest accepted distance between the delivery's timestamp and now, in seconds; default 300. */
  toleranceSeconds?: number | undefined;
  /**
   * Largest body read, in bytes (a whole number ≥ 1); default 1 MiB. A larger one is answered 413
   * `payload_too_large` without being kept or verified. Parley's events are a few KB.
   */
  maxBodyBytes?: number | undefined;
  /**
   * An OpenTelemetry `Tracer` (`trace.getTracer('my-app')`): each delivery becomes a `CONSUMER`
   * span, active while your handler runs so its spans nest under it (see docs/webhooks.md).
   */
  tracer?: OpenTelemetryTracer | undefined;
}

/**
 * Options of `createWebhookHandler`: the endpoint's signing secret as `secret`, or every secret
 * valid during a rotation as `secrets` (any may match), plus {@link WebhookHandlerSettings}.
 */
export type WebhookHandlerOptions = WebhookHandlerSettings &
  ({ secret: string | readonly string[]; secrets?: never } | { secrets: readonly string[]; secret?: never });
