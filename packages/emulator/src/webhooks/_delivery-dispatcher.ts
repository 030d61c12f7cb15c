import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@parley/sdk';
import type { Clock, ScheduledJob, Scheduler } from '../clock/clock-types';
import type { RetrySchedule } from '../domain/retry-schedule';
import { signingSecrets } from '../domain/signing-secret';
import { type ChaosKind, chaosHoldMs, isForgedChaosKind, planChaos } from '../domain/webhook-chaos';
import type { DeliveryRecord, EndpointRecord, WebhooksState } from '../store/webhook-state';
import { chaosVerdict, signedCopy } from './_chaos-copies';
import { EndpointLanes } from './_endpoint-lanes';
import { OutOfOrderHolds } from './_out-of-order-holds';
import { ownAttemptCount } from './_webhook-views';
import { type AttemptOutcome, type DeliveryNetwork, sendDeliveryAttempt } from './delivery-attempt';
import { checkEndpointTarget, type HostResolver, type UrlPolicy } from './url-policy';
import { CHANGED, type WebhookOutcomes } from './webhook-outcomes';

/** What the dispatcher needs from the service. */
export interface DispatcherDeps {
  getState: () => WebhooksState;
  clock: Clock;
  scheduler: Scheduler;
  /** The clock and scheduler of an application's workspace (its own, or `clock` and `scheduler`). */
  timeOf?: ((applicationId: string) => { clock: Clock; scheduler: Scheduler }) | undefined;
  urlPolicy: UrlPolicy;
  resolveHost: HostResolver;
  /** Test seams of the delivery sockets (a local stand-in for a public address, a test CA). */
  network?: DeliveryNetwork | undefined;
  attemptTimeoutMs: number;
  /** How failed attempts are retried (`--retry-schedule`). */
  retrySchedule: RetrySchedule;
  /** Where a queued delivery and each recorded attempt are told (the service's channel). */
  outcomes: WebhookOutcomes;
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
 * runs on its own promise, so one slow receiver never holds up another delivery. The job returns
 * that promise: a clock advance awaits the attempt (its answer, or its real-time timeout) before it
 * runs later jobs, so the retry it schedules is run in the same advance at its own time.
 */
export class DeliveryDispatcher {
  readonly #deps: DispatcherDeps;
  readonly #timers = new Map<string, ScheduledJob>();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #closing = new AbortController();
  readonly #lanes = new EndpointLanes(PARALLEL_ATTEMPTS_PER_ENDPOINT);
  readonly #holds = new OutOfOrderHolds();
  #finished: string[] = [];

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
  }

  /** The time of the delivery's workspace: deliveries leave and retry on it. */
  #timeOf(applicationId: string): { clock: Clock; scheduler: Scheduler } {
    return this.#deps.timeOf?.(applicationId) ?? this.#deps;
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
    const now = this.#timeOf(endpoint.application_id).clock.now();
    // Planned when built, so the plan is journaled with the delivery and a restart keeps it.
    const chaos = endpoint.chaos ? planChaos(endpoint.chaos) : [];
    return {
      id: randomUUID(),
      event_id: event.id,
      event_type: event.type,
      endpoint_id: endpoint.id,
      application_id: endpoint.application_id,
      status: 'pending',
      attempts: [],
      next_attempt_at: iso(now + chaosHoldMs(endpoint.chaos, chaos)),
      created_at: iso(now),
      body,
      ...(chaos.length > 0 ? { chaos } : {}),
    };
  }

  /** Stores a built delivery and schedules its attempt; the caller tells the change. */
  enqueue(delivery: DeliveryRecord): void {
    this.#deps.getState().deliveries[delivery.id] = delivery;
    this.#holds.add(delivery);
    this.schedule(delivery);
    this.#deps.outcomes.tell({ kind: 'delivery', delivery });
  }

  /** (Re)schedules a pending delivery's next attempt at its `next_attempt_at`. */
  schedule(delivery: DeliveryRecord): void {
    if (this.#closing.signal.aborted || delivery.status !== 'pending') return;
    this.cancel(delivery.id);
    const { clock, scheduler } = this.#timeOf(delivery.application_id);
    const at = delivery.next_attempt_at === null ? clock.now() : Date.parse(delivery.next_attempt_at);
    this.#timers.set(
      delivery.id,
      scheduler.schedule(at, () => this.#start(delivery.id)),
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
    this.#holds.clear();
    for (const delivery of Object.values(this.#deps.getState().deliveries)) {
      this.#holds.add(delivery);
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

  /**
   * Starts the delivery's attempt and returns it, with the attempts of the deliveries it released
   * (out_of_order): an advance awaits it, the wall-clock timer does not. Due while its previous
   * attempt is still finishing (a duplicate chaos copy in flight), it starts once that one is done.
   */
  #start(deliveryId: string): Promise<void> | undefined {
    this.#timers.delete(deliveryId);
    const delivery = this.#deps.getState().deliveries[deliveryId];
    if (delivery?.status !== 'pending' || this.#closing.signal.aborted) return undefined;
    const previous = this.#inFlight.get(deliveryId);
    if (previous) {
      // A timer set meanwhile (a restore) owns the next attempt; without one, this job does.
      return previous.then(() => (this.#timers.has(deliveryId) ? undefined : this.#start(deliveryId)));
    }
    const released: Promise<void>[] = [];
    const attempt = this.#run(delivery, released).finally(() => this.#inFlight.delete(deliveryId));
    this.#inFlight.set(deliveryId, attempt);
    return attempt.then(() => Promise.all(released)).then(() => undefined);
  }

  async #run(delivery: DeliveryRecord, released: Promise<void>[]): Promise<void> {
    const lane = delivery.endpoint_id;
    const waiting = this.#lanes.acquire(lane);
    if (waiting) await waiting;
    try {
      // Read again after waiting: the endpoint may be gone, or the whole state replaced.
      const state = this.#deps.getState();
      const endpoint = state.endpoints[delivery.endpoint_id];
      if (!endpoint || state.deliveries[delivery.id] !== delivery || this.#closing.signal.aborted) return;
      // On an advance the clock stays at the instant the attempt was due until the attempt is
      // done, so `at` is its scheduled time, also after waiting for a lane.
      await this.#attempt(delivery, endpoint, this.#timeOf(delivery.application_id).clock.now(), released);
    } finally {
      this.#lanes.release(lane);
    }
  }

  async #attempt(
    delivery: DeliveryRecord,
    endpoint: EndpointRecord,
    at: number,
    released: Promise<void>[],
  ): Promise<void> {
    // Chaos goes with the first attempt only: forged copies before it (a receiver that trusts one
    // then shows what it does with the genuine delivery), a duplicate after it.
    const chaos = ownAttemptCount(delivery) === 0 ? (delivery.chaos ?? []) : [];
    this.#holds.delete(delivery);
    for (const kind of chaos) {
      if (isForgedChaosKind(kind)) await this.#chaosCopy(delivery, endpoint, at, kind);
    }
    const outcome = await this.#send(delivery, endpoint, at);
    // Shutting down or state replaced (reset, reload): this attempt no longer belongs to any record.
    if (!this.#owns(delivery)) return;
    delivery.attempts.push({
      at: iso(at),
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
    });
    // Chaos copies are not attempts of the delivery: a forged copy rightly refused never counts
    // as a failure, and the retry schedule goes by the delivery's own attempts.
    const attempts = ownAttemptCount(delivery);
    if (outcome.error === null) {
      delivery.status = 'delivered';
      delivery.next_attempt_at = null;
    } else if (attempts >= this.#deps.retrySchedule.maxAttempts) {
      delivery.status = 'failed';
      delivery.next_attempt_at = null;
    } else {
      delivery.next_attempt_at = iso(at + this.#deps.retrySchedule.delayAfter(attempts));
      this.schedule(delivery);
    }
    if (delivery.status !== 'pending') {
      this.#finished.push(delivery.id);
      this.#dropOldFinished();
    }
    this.#deps.outcomes.tell(CHANGED);
    this.#deps.outcomes.tell({ kind: 'delivery', delivery });
    released.push(...this.#releaseHeld(delivery));
    if (chaos.includes('duplicate')) await this.#chaosCopy(delivery, endpoint, at, 'duplicate');
  }

  /** One chaos copy, kept among the attempts with its kind; it never changes the delivery's status. */
  async #chaosCopy(delivery: DeliveryRecord, endpoint: EndpointRecord, at: number, kind: ChaosKind) {
    const outcome = await this.#send(delivery, endpoint, at, kind);
    if (!this.#owns(delivery)) return;
    delivery.attempts.push({
      at: iso(at),
      status_code: outcome.statusCode,
      error: chaosVerdict(kind, outcome),
      duration_ms: outcome.durationMs,
      chaos: kind,
    });
    this.#deps.outcomes.tell(CHANGED);
    this.#deps.outcomes.tell({ kind: 'delivery', delivery, chaos: kind });
  }

  /**
   * Deliveries that out_of_order chaos holds back go once another one to their endpoint went;
   * returns their attempts, which run outside the overtaking one's lane.
   */
  #releaseHeld(overtaking: DeliveryRecord): Promise<void>[] {
    const deliveries = this.#deps.getState().deliveries;
    const started: Promise<void>[] = [];
    for (const id of this.#holds.releaseFor(overtaking)) {
      const held = deliveries[id];
      if (held?.status !== 'pending') continue;
      held.next_attempt_at = iso(this.#timeOf(held.application_id).clock.now());
      // Started here rather than through a timer: it is due now, and `idle()` then waits for it.
      this.cancel(id);
      const attempt = this.#start(id);
      if (attempt) started.push(attempt);
    }
    return started;
  }

  #owns(delivery: DeliveryRecord): boolean {
    return !this.#closing.signal.aborted && this.#deps.getState().deliveries[delivery.id] === delivery;
  }

  #dropOldFinished(): void {
    if (this.#finished.length <= KEPT_FINISHED_DELIVERIES) return;
    const deliveries = this.#deps.getState().deliveries;
    for (const id of this.#finished.splice(0, this.#finished.length - KEPT_FINISHED_DELIVERIES)) {
      if (deliveries[id]?.status !== 'pending') delete deliveries[id];
    }
  }

  async #send(
    delivery: DeliveryRecord,
    endpoint: EndpointRecord,
    at: number,
    kind?: ChaosKind,
  ): Promise<AttemptOutcome> {
    try {
      // Checked again before every attempt (a host's DNS answer can change after creation), and
      // the attempt connects to exactly the addresses checked here: the name is resolved once.
      const target = await checkEndpointTarget(endpoint.url, this.#deps.urlPolicy, this.#deps.resolveHost);
      // The secret follows the emulator clock (a rotation expires in its time); the timestamp is
      // the real time the attempt leaves, what receivers check it against (DESIGN §3).
      const signed = await signedCopy(delivery, signingSecrets(endpoint, at), kind);
      return await sendDeliveryAttempt({
        url: target.href,
        addresses: target.addresses,
        network: this.#deps.network,
        body: signed.body,
        headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signed.headers },
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
