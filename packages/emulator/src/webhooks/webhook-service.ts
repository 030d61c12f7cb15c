import { randomInt, randomUUID } from 'node:crypto';
import { canonicalJson, type WebhookEvent } from '@parley/sdk';
import type { Clock, Scheduler } from '../clock/clock-types';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid } from '../domain/ids';
import { RETRY_SCHEDULES, type RetrySchedule } from '../domain/retry-schedule';
import { generateSigningSecret, rotateSigningSecret } from '../domain/signing-secret';
import { chaosView, parseChaosInput } from '../domain/webhook-chaos';
import type { DeliveryRecord, EndpointRecord, WebhooksState } from '../store/webhook-state';
import { DeliveryDispatcher } from './_delivery-dispatcher';
import { parseCreateEndpointInput, parseUpdateEndpointInput } from './_endpoint-input';
import { type DeliveryView, type EndpointView, toDeliveryView, toEndpointView } from './_webhook-views';
import type { DeliveryNetwork } from './delivery-attempt';
import { checkEndpointUrl, type HostResolver, systemResolver, type UrlPolicy } from './url-policy';
import { CHANGED, WebhookOutcomes } from './webhook-outcomes';
import { buildWebhookTestEvent } from './webhook-test-event';

export type { DeliveryView, EndpointView } from './_webhook-views';
export { toDeliveryView } from './_webhook-views';
export type { WebhookOutcome } from './webhook-outcomes';

/** What the webhook service needs from the emulator. */
export interface WebhookServiceDeps {
  /** The current state; read on every call, so the store may replace it (reset, load). */
  getState: () => WebhooksState;
  clock: Clock;
  scheduler: Scheduler;
  /**
   * The clock and scheduler of an application's workspace, when workspaces may have their own
   * (default: `clock` and `scheduler` for every application).
   */
  timeOf?: (applicationId: string) => { clock: Clock; scheduler: Scheduler };
  urlPolicy: UrlPolicy;
  /** Host resolver for the URL policy; tests inject a fake one (default: `dns.lookup`). */
  resolveHost?: HostResolver;
  /** Test seams of the delivery sockets: a local stand-in for a checked public address, a test CA. */
  network?: DeliveryNetwork;
  /** Real milliseconds an attempt may take (default 15 000, spec 8); tests shorten it. */
  attemptTimeoutMs?: number;
  /** How failed attempts are retried (default: the service's schedule, `real`). */
  retrySchedule?: RetrySchedule;
}

/**
 * Webhook endpoints and their deliveries: routing, signing, the retry schedule, replay and
 * secret rotation (spec 6, DESIGN §3). Throws `DomainError` for every refused input.
 */
export class WebhookService {
  /**
   * Where every change and every delivery's progress is told, typed, to the one owner that applies
   * them (the core: a snapshot, the activity feed); see `webhook-outcomes.ts`.
   */
  readonly outcomes = new WebhookOutcomes();
  readonly #deps: WebhookServiceDeps;
  readonly #dispatcher: DeliveryDispatcher;

  constructor(deps: WebhookServiceDeps) {
    this.#deps = deps;
    this.#dispatcher = new DeliveryDispatcher({
      getState: deps.getState,
      clock: deps.clock,
      scheduler: deps.scheduler,
      timeOf: deps.timeOf,
      urlPolicy: deps.urlPolicy,
      resolveHost: deps.resolveHost ?? systemResolver,
      network: deps.network,
      attemptTimeoutMs: deps.attemptTimeoutMs ?? 15_000,
      retrySchedule: deps.retrySchedule ?? RETRY_SCHEDULES.real,
      outcomes: this.outcomes,
    });
  }

  /** Creates an endpoint; the answer is the only place its secret is ever shown. */
  async createEndpoint(applicationId: string, input: unknown): Promise<EndpointView & { secret: string }> {
    const fields = parseCreateEndpointInput(input);
    const url = await checkEndpointUrl(
      fields.url,
      this.#deps.urlPolicy,
      this.#deps.resolveHost ?? systemResolver,
    );
    const endpoint: EndpointRecord = {
      id: randomUUID(),
      application_id: applicationId,
      url,
      events: fields.events,
      active: fields.active,
      created_at: formatTimestamp(this.#now(applicationId)),
      ...(fields.description === undefined ? {} : { description: fields.description }),
      secret: fields.secret ?? generateSigningSecret(),
      previous_secret: null,
    };
    this.#deps.getState().endpoints[endpoint.id] = endpoint;
    this.outcomes.tell(CHANGED);
    return { ...toEndpointView(endpoint), secret: endpoint.secret };
  }

  /** Changes `active`, `events` and/or `description`. */
  updateEndpoint(id: string, input: unknown): EndpointView {
    const endpoint = this.#endpoint(id);
    const update = parseUpdateEndpointInput(input);
    if (update.events) endpoint.events = update.events;
    if (update.active !== undefined) endpoint.active = update.active;
    if (update.description === null) delete endpoint.description;
    else if (update.description !== undefined) endpoint.description = update.description;
    this.outcomes.tell(CHANGED);
    return toEndpointView(endpoint);
  }

  /** Deletes the endpoint with its deliveries; their retries stop. */
  deleteEndpoint(id: string): void {
    this.#endpoint(id);
    const state = this.#deps.getState();
    for (const delivery of Object.values(state.deliveries)) {
      if (delivery.endpoint_id !== id) continue;
      this.#dispatcher.cancel(delivery.id);
      delete state.deliveries[delivery.id];
    }
    delete state.endpoints[id];
    this.outcomes.tell(CHANGED);
  }

  /** Rotates the signing secret (spec 6.4); the new secret is shown only here. */
  rotateSecret(id: string): { secret: string; previous_expires_at: string } {
    const endpoint = this.#endpoint(id);
    const rotation = rotateSigningSecret(endpoint, this.#now(endpoint.application_id));
    this.outcomes.tell(CHANGED);
    return {
      secret: rotation.secret,
      previous_expires_at: new Date(rotation.previousExpiresAt).toISOString(),
    };
  }

  /**
   * Turns webhook chaos on for the endpoint, replacing what it had (`PUT …/chaos`); without a
   * `seed`, one is drawn and shown, so the same run can be repeated.
   */
  setChaos(id: string, input: unknown): ReturnType<typeof chaosView> {
    const endpoint = this.#endpoint(id);
    endpoint.chaos = parseChaosInput(input, randomInt(0x1_0000_0000));
    this.outcomes.tell(CHANGED);
    return chaosView(endpoint.id, endpoint.chaos);
  }

  /** The endpoint's chaos: settings, seed, and how many deliveries got each kind (`GET …/chaos`). */
  getChaos(id: string): ReturnType<typeof chaosView> {
    const endpoint = this.#endpoint(id);
    return chaosView(endpoint.id, endpoint.chaos);
  }

  /** Turns chaos off (`DELETE …/chaos`); deliveries already planned keep their chaos. */
  clearChaos(id: string): void {
    this.#endpoint(id).chaos = null;
    this.outcomes.tell(CHANGED);
  }

  /** Endpoints, oldest first, optionally of one application. */
  listEndpoints(applicationId?: string): EndpointView[] {
    return Object.values(this.#deps.getState().endpoints)
      .filter((endpoint) => applicationId === undefined || endpoint.application_id === applicationId)
      .map(toEndpointView);
  }

  /** One endpoint; `not_found` when unknown. */
  getEndpoint(id: string): EndpointView {
    return toEndpointView(this.#endpoint(id));
  }

  /**
   * The deliveries of an event: one to every active endpoint of these applications that
   * subscribes to its type (spec 6.1), built but not queued, so the caller can make them durable
   * first. The body is serialised once, canonically.
   */
  deliveriesFor(event: WebhookEvent, applicationIds: readonly string[]): DeliveryRecord[] {
    const deliveries: DeliveryRecord[] = [];
    let body: string | undefined;
    for (const endpoint of Object.values(this.#deps.getState().endpoints)) {
      if (!endpoint.active || !applicationIds.includes(endpoint.application_id)) continue;
      if (!endpoint.events.includes(event.type)) continue;
      body ??= canonicalJson(event);
      deliveries.push(this.#dispatcher.build(endpoint, event, body));
    }
    return deliveries;
  }

  /** Stores built deliveries and schedules their first attempts (due now). */
  queue(deliveries: readonly DeliveryRecord[]): void {
    for (const delivery of deliveries) this.#dispatcher.enqueue(delivery);
    if (deliveries.length > 0) this.outcomes.tell(CHANGED);
  }

  /** Queues the event to its endpoints ({@link deliveriesFor}) and returns the deliveries it created. */
  publish(event: WebhookEvent, applicationIds: readonly string[]): DeliveryRecord[] {
    const deliveries = this.deliveriesFor(event, applicationIds);
    this.queue(deliveries);
    return deliveries;
  }

  /** A `webhook.test` delivery to this endpoint only, whatever it subscribes to: built, not queued. */
  testDelivery(endpointId: string, livemode: boolean): DeliveryRecord {
    const endpoint = this.#endpoint(endpointId);
    const event = buildWebhookTestEvent(this.#now(endpoint.application_id), livemode);
    return this.#dispatcher.build(endpoint, event, canonicalJson(event));
  }

  /** Sends a `webhook.test` event to this endpoint only. */
  sendTest(endpointId: string, livemode = false): { event_id: string } {
    const delivery = this.testDelivery(endpointId, livemode);
    this.queue([delivery]);
    return { event_id: delivery.event_id };
  }

  /** Deliveries, newest first, optionally of one endpoint and/or one application. */
  listDeliveries(filter: { endpointId?: string; applicationId?: string }): DeliveryView[] {
    return Object.values(this.#deps.getState().deliveries)
      .filter(
        (delivery) =>
          (filter.endpointId === undefined || delivery.endpoint_id === filter.endpointId) &&
          (filter.applicationId === undefined || delivery.application_id === filter.applicationId),
      )
      .reverse()
      .map(toDeliveryView);
  }

  /**
   * A new attempt series of a finished delivery, built, not queued: same event id, same body,
   * first attempt now.
   */
  replayDelivery(deliveryId: string): DeliveryRecord {
    const original = this.#deps.getState().deliveries[deliveryId];
    if (!original)
      throw new DomainError('not_found', `No delivery ${deliveryId}.`, { delivery_id: deliveryId });
    if (original.status === 'pending') {
      throw new DomainError(
        'validation_error',
        `Delivery ${deliveryId} is still pending; replay it once it is delivered or failed.`,
        { field: 'delivery_id', reason: 'pending' },
      );
    }
    const endpoint = this.#endpoint(original.endpoint_id);
    return this.#dispatcher.build(
      endpoint,
      { id: original.event_id, type: original.event_type },
      original.body,
    );
  }

  /** Replays a finished delivery ({@link replayDelivery}) and queues it. */
  replay(deliveryId: string): DeliveryView {
    const replayed = this.replayDelivery(deliveryId);
    this.queue([replayed]);
    return toDeliveryView(replayed);
  }

  /**
   * Forgets every delivery of these applications (a workspace reset): their retries stop, and an
   * attempt in flight is not recorded. Endpoints stay.
   */
  forgetDeliveries(applicationIds: ReadonlySet<string>): void {
    const state = this.#deps.getState();
    for (const delivery of Object.values(state.deliveries)) {
      if (!applicationIds.has(delivery.application_id)) continue;
      this.#dispatcher.cancel(delivery.id);
      delete state.deliveries[delivery.id];
    }
    this.outcomes.tell(CHANGED);
  }

  /** After state was loaded: every pending delivery is scheduled again at its `next_attempt_at`. */
  restore(): void {
    this.#dispatcher.restore();
  }

  /** Resolves once no HTTP attempt is in flight: tests `await clock.advance(ms); await service.idle()`. */
  idle(): Promise<void> {
    return this.#dispatcher.idle();
  }

  /** Aborts in-flight attempts (they stay pending, so a restart resends them) and cancels every timer. */
  close(): Promise<void> {
    return this.#dispatcher.close();
  }

  /** Emulator time in the application's workspace. */
  #now(applicationId: string): number {
    return (this.#deps.timeOf?.(applicationId).clock ?? this.#deps.clock).now();
  }

  #endpoint(id: string): EndpointRecord {
    const endpoint = isUuid(id) ? this.#deps.getState().endpoints[id] : undefined;
    if (!endpoint) throw new DomainError('not_found', `No endpoint ${id}.`, { endpoint_id: id });
    return endpoint;
  }
}
