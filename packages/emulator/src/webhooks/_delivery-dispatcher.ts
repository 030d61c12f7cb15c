import { randomUUID } from 'node:crypto';
import { signWebhook, type WebhookEventType } from '@parley/sdk';
import type { Clock, ScheduledJob, Scheduler } from '../clock/clock-types';
import { EndpointLanes } from './_endpoint-lanes';
import type { DeliveryRecord, EndpointRecord, WebhooksState } from './_webhook-records';
import { type AttemptOutcome, type DeliveryNetwork, sendDeliveryAttempt } from './delivery-attempt';
import { MAX_DELIVERY_ATTEMPTS, retryDelayMs } from './retry-schedule';
import { signingSecrets } from './signing-secret';
import { checkEndpointTarget, type HostResolver, type UrlPolicy } from './url-policy';

/** What the dispatcher needs from the service. */
export interface DispatcherDeps {
  getState: () => WebhooksState;
  clock: Clock;
  scheduler: Scheduler;
  urlPolicy: UrlPolicy;
  resolveHost: HostResolver;
  /** Test seams of the delivery sockets (a local stand-in for a public address, a test CA). */
  network?: DeliveryNetwork | undefined;
  attemptTimeoutMs: number;
  onChange: () => void;
  onDelivery?: ((delivery: DeliveryRecord) => void) | undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Finished deliveries kept for the console and the control API; older ones are dropped so a
 * long-running emulator (or a load test) keeps a bounded memory. Pending ones are never dropped.
 */
export const KEPT_FINISHED_DELIVERIES = 10_000;

/** Sent with every delivery, so receivers and their logs can tell webhook traffic apart. */
export const WEBHOOK_USER_AGENT = 'Parley-Webhooks/1.0 (emulator)';

/** Attempts in flight at once to one endpoint; the rest of a burst waits its turn. */
export const PARALLEL_ATTEMPTS_PER_ENDPOINT = 8;

/**
 * Runs deliveries: each attempt is a scheduler job (so a frozen clock controls it), and each
 * runs on its own promise, so one slow receiver never holds up another delivery.
 */
export class DeliveryDispatcher {
  readonly #deps: DispatcherDeps;
  readonly #timers = new Map<string, ScheduledJob>();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #closing = new AbortController();
  readonly #lanes = new EndpointLanes(PARALLEL_ATTEMPTS_PER_ENDPOINT);
  #finished: string[] = [];

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
  }

  /**
   * A pending delivery of `body` to the endpoint, first attempt due now: built, not yet stored, so
   * the caller can make it durable before it can leave ({@link enqueue}).
   */
  build(
    endpoint: EndpointRecord,
    event: { id: string; type: WebhookEventType },
    body: string,
  ): DeliveryRecord {
    const now = this.#deps.clock.now();
    return {
      id: randomUUID(),
      event_id: event.id,
      event_type: event.type,
      endpoint_id: endpoint.id,
      application_id: endpoint.application_id,
      status: 'pending',
      attempts: [],
      next_attempt_at: iso(now),
      created_at: iso(now),
      body,
    };
  }

  /** Stores a built delivery and schedules its attempt. Caller calls onChange. */
  enqueue(delivery: DeliveryRecord): void {
    this.#deps.getState().deliveries[delivery.id] = delivery;
    this.schedule(delivery);
    this.#deps.onDelivery?.(delivery);
  }

  /** (Re)schedules a pending delivery's next attempt at its `next_attempt_at`. */
  schedule(delivery: DeliveryRecord): void {
    if (this.#closing.signal.aborted || delivery.status !== 'pending') return;
    this.cancel(delivery.id);
    const at =
      delivery.next_attempt_at === null ? this.#deps.clock.now() : Date.parse(delivery.next_attempt_at);
    this.#timers.set(
      delivery.id,
      this.#deps.scheduler.schedule(at, () => this.#start(delivery.id)),
    );
  }

  /** Cancels a delivery's timer (its in-flight attempt, if any, still finishes and is recorded). */
  cancel(deliveryId: string): void {
    this.#timers.get(deliveryId)?.cancel();
    this.#timers.delete(deliveryId);
  }

  /** Cancels every timer: before a restore, or on close. */
  cancelAll(): void {
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
  }

  /** Forgets what it knew of the old state and schedules every pending delivery of the current one. */
  restore(): void {
    this.cancelAll();
    this.#finished = [];
    for (const delivery of Object.values(this.#deps.getState().deliveries)) {
      if (delivery.status === 'pending') this.schedule(delivery);
      else this.#finished.push(delivery.id);
    }
    this.#dropOldFinished();
  }

  /** Resolves once no attempt is in flight (attempts started meanwhile are awaited too). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  /** Aborts in-flight attempts without recording them (they stay pending for a restart) and stops. */
  async close(): Promise<void> {
    this.#closing.abort();
    this.cancelAll();
    await this.idle();
  }

  // Deliberately returns nothing: the scheduler must not wait for the network.
  #start(deliveryId: string): void {
    this.#timers.delete(deliveryId);
    const delivery = this.#deps.getState().deliveries[deliveryId];
    if (delivery?.status !== 'pending' || this.#inFlight.has(deliveryId) || this.#closing.signal.aborted)
      return;
    const attempt = this.#run(delivery).finally(() => this.#inFlight.delete(deliveryId));
    this.#inFlight.set(deliveryId, attempt);
  }

  async #run(delivery: DeliveryRecord): Promise<void> {
    const lane = delivery.endpoint_id;
    const waiting = this.#lanes.acquire(lane);
    if (waiting) await waiting;
    try {
      // Read again after waiting: the endpoint may be gone, or the whole state replaced.
      const state = this.#deps.getState();
      const endpoint = state.endpoints[delivery.endpoint_id];
      if (!endpoint || state.deliveries[delivery.id] !== delivery || this.#closing.signal.aborted) return;
      await this.#attempt(delivery, endpoint, this.#deps.clock.now());
    } finally {
      this.#lanes.release(lane);
    }
  }

  async #attempt(delivery: DeliveryRecord, endpoint: EndpointRecord, at: number): Promise<void> {
    const outcome = await this.#send(delivery, endpoint, at);
    // Shutting down or state replaced (reset, reload): this attempt no longer belongs to any record.
    if (this.#closing.signal.aborted || this.#deps.getState().deliveries[delivery.id] !== delivery) return;
    delivery.attempts.push({
      at: iso(at),
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
    });
    if (outcome.error === null) {
      delivery.status = 'delivered';
      delivery.next_attempt_at = null;
    } else if (delivery.attempts.length >= MAX_DELIVERY_ATTEMPTS) {
      delivery.status = 'failed';
      delivery.next_attempt_at = null;
    } else {
      delivery.next_attempt_at = iso(at + retryDelayMs(delivery.attempts.length));
      this.schedule(delivery);
    }
    if (delivery.status !== 'pending') {
      this.#finished.push(delivery.id);
      this.#dropOldFinished();
    }
    this.#deps.onChange();
    this.#deps.onDelivery?.(delivery);
  }

  #dropOldFinished(): void {
    if (this.#finished.length <= KEPT_FINISHED_DELIVERIES) return;
    const deliveries = this.#deps.getState().deliveries;
    for (const id of this.#finished.splice(0, this.#finished.length - KEPT_FINISHED_DELIVERIES)) {
      if (deliveries[id]?.status !== 'pending') delete deliveries[id];
    }
  }

  async #send(delivery: DeliveryRecord, endpoint: EndpointRecord, at: number): Promise<AttemptOutcome> {
    try {
      // Checked again before every attempt (a host's DNS answer can change after creation), and
      // the attempt connects to exactly the addresses checked here: the name is resolved once.
      const target = await checkEndpointTarget(endpoint.url, this.#deps.urlPolicy, this.#deps.resolveHost);
      const signed = await signWebhook({
        payload: delivery.body,
        // The secret follows the emulator clock (a rotation expires in its time); the timestamp is
        // the real time the attempt leaves, what receivers check it against (DESIGN §3).
        secret: signingSecrets(endpoint, at),
        id: delivery.event_id,
        timestamp: Math.floor(Date.now() / 1000),
      });
      return await sendDeliveryAttempt({
        url: target.href,
        addresses: target.addresses,
        network: this.#deps.network,
        body: delivery.body,
        headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signed },
        timeoutMs: this.#deps.attemptTimeoutMs,
        signal: this.#closing.signal,
      });
    } catch (failure) {
      return {
        statusCode: null,
        error: failure instanceof Error ? failure.message : String(failure),
        durationMs: 0,
      };
    }
  }
}
