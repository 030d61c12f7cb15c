import type { WebhookEvent } from '@parley/sdk';
import type { Timeline } from '../clock/create-timeline';
import { hashKey } from '../domain/api-keys';
import { buildEvent, routeEvent } from '../domain/event-routing';
import { formatTimestamp } from '../domain/ids';
import { stepsOf } from '../domain/message-lifecycle';
import { type JournalEntry, memoryPersistence, type Persistence } from '../store/persistence';
import {
  type ApplicationRecord,
  type EmulatorState,
  MAX_RECENT_EVENTS,
  type MessageRecord,
} from '../store/state';
import type { UrlPolicy } from '../webhooks/url-policy';
import { WebhookService } from '../webhooks/webhook-service';
import { MessageTimers } from './message-timers';

/** What the core is built from. */
export interface CoreOptions {
  timeline: Timeline;
  rateLimits: boolean;
  urlPolicy: UrlPolicy;
  persistence: Persistence;
  state: EmulatorState;
}

/**
 * The running emulator without HTTP: the state, the one clock and scheduler, the webhook
 * service, the key index, and the side effects every operation shares (events, persistence,
 * message timers). Operations live in `v1-operations.ts` and `control-operations.ts`.
 */
export class EmulatorCore {
  state: EmulatorState;
  readonly timeline: Timeline;
  readonly rateLimits: boolean;
  readonly urlPolicy: UrlPolicy;
  readonly persistence: Persistence;
  webhooks: WebhookService;
  /** Key id by SHA-256 of the key: a hash index, so lookup time says nothing about the key. */
  keyIndex = new Map<string, string>();
  /** Idempotency slots whose first request is still being read or processed. */
  readonly inFlight = new Set<string>();
  #timers: MessageTimers;

  constructor(options: CoreOptions) {
    this.state = options.state;
    this.timeline = options.timeline;
    this.rateLimits = options.rateLimits;
    this.urlPolicy = options.urlPolicy;
    this.persistence = options.persistence;
    this.webhooks = this.#createWebhooks();
    this.#timers = this.#createTimers();
    this.#indexKeys();
  }

  now(): number {
    return this.timeline.clock.now();
  }

  /** Whether changes reach a disk (`--data-dir`); without it, journal entries are not even built. */
  get durable(): boolean {
    return this.persistence !== memoryPersistence;
  }

  /** Something changed that a snapshot should catch (coalesced). */
  changed(): void {
    this.persistence.changed();
  }

  /** Appends durable records (before answering a 202). */
  journal(entries: readonly JournalEntry[]): void {
    this.persistence.journal(entries);
  }

  /** Swaps in a new state (reset, load): timers of the old one are cancelled, new ones scheduled. */
  async replaceState(state: EmulatorState): Promise<void> {
    await this.webhooks.close();
    this.timeline.clearJobs();
    this.state = state;
    this.inFlight.clear();
    this.webhooks = this.#createWebhooks();
    this.#timers = this.#createTimers();
    this.#indexKeys();
    this.restoreTimers();
  }

  /** Schedules every timer the state implies: message status steps and pending deliveries. */
  restoreTimers(): void {
    this.#timers.restore(Object.values(this.state.messages));
    this.webhooks.restore();
  }

  /** Registers a key hash for authentication. */
  indexKey(hash: string, keyId: string): void {
    this.keyIndex.set(hash, keyId);
  }

  /** The key record for a presented key, if it exists. */
  findKey(presented: string) {
    const keyId = this.keyIndex.get(hashKey(presented));
    return keyId === undefined ? undefined : this.state.keys[keyId];
  }

  /**
   * Builds an event about `source`, routes it (spec 6.1), queues its deliveries and keeps it
   * among the recent events. Returns the envelope and how many deliveries were queued.
   */
  emit<Type extends WebhookEvent['type']>(
    type: Type,
    data: Parameters<typeof buildEvent<Type>>[1],
    source: ApplicationRecord,
    livemode = source.environment === 'live',
  ): { event: Extract<WebhookEvent, { type: Type }>; queued: number } {
    const event = buildEvent(type, data, this.now(), livemode);
    const applicationIds = routeEvent(source, this.state.applications);
    return { event, queued: this.publish(event, applicationIds) };
  }

  /** Queues an already-built event to these applications and records it. */
  publish(event: WebhookEvent, applicationIds: string[]): number {
    const events = this.state.events;
    events.push({ event, application_ids: applicationIds });
    // Trimmed in batches: one splice per 100 events, not a 500-element shift per event.
    if (events.length >= MAX_RECENT_EVENTS + 100) events.splice(0, events.length - MAX_RECENT_EVENTS);
    return this.#hasEndpoints() ? this.webhooks.publish(event, applicationIds) : 0;
  }

  /** Whether any endpoint exists: without one, publishing (which serialises the event) is skipped. */
  #hasEndpoints(): boolean {
    for (const _ in this.state.webhooks.endpoints) return true;
    return false;
  }

  /** Schedules the next status step of a message not yet announced. */
  scheduleMessage(record: MessageRecord): void {
    this.#timers.add(record);
  }

  /**
   * Announces the next status step of a message. `record.message` stays as accepted (replays
   * answer it); the current status is always computed from age (`messageAt`).
   */
  #announceStep(record: MessageRecord): void {
    const app = this.state.applications[record.application_id];
    const step = stepsOf(record)[record.announced];
    if (!step) return;
    record.announced++;
    if (!app) return;
    const message = {
      ...record.message,
      status: step.status,
      updated_at: formatTimestamp(record.accepted_at + step.age),
    };
    this.emit('message.status_updated', { message }, app);
    this.changed();
  }

  #createTimers(): MessageTimers {
    return new MessageTimers(
      this.timeline.scheduler,
      (id) => this.state.messages[id],
      (record) => this.#announceStep(record),
      () => this.now(),
    );
  }

  #createWebhooks(): WebhookService {
    return new WebhookService({
      getState: () => this.state.webhooks,
      clock: this.timeline.clock,
      scheduler: this.timeline.scheduler,
      urlPolicy: this.urlPolicy,
      onChange: () => this.changed(),
    });
  }

  #indexKeys(): void {
    this.keyIndex = new Map(Object.values(this.state.keys).map((key) => [key.hash, key.id]));
  }
}
