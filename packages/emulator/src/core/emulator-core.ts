import type { WebhookEvent } from '@parley/sdk';
import type { Timeline } from '../clock/create-timeline';
import { hashKey } from '../domain/api-keys';
import type { EventData } from '../domain/event-routing';
import type { ApplicationRecord, MessageRecord } from '../domain/records';
import type { RetrySchedule } from '../domain/retry-schedule';
import {
  type JournalEntry,
  memoryPersistence,
  type Persistence,
  type PersistenceHealth,
} from '../store/persistence';
import type { EmulatorState } from '../store/state';
import type { DeliveryRecord } from '../store/webhook-state';
import type { WebhookNetwork } from '../webhooks/delivery-attempt';
import type { UrlPolicy } from '../webhooks/url-policy';
import { toDeliveryView, type WebhookOutcome, WebhookService } from '../webhooks/webhook-service';
import { type Emitted, EventOutbox } from './_event-outbox';
import { ActivityFeed } from './activity-feed';
import { FaultTable } from './fault-table';
import { MessageTimers } from './message-timers';
import { RateLimits } from './rate-limits';
import { SendIdempotency } from './send-idempotency';
import { WorkspaceClocks } from './workspace-clocks';

export type { Emitted } from './_event-outbox';

/**
 * The parts of the state an operation reads or changes, as `core.state` gives them: operations
 * name the records they need (`StateParts<'events'>`) rather than taking the whole core.
 */
export interface StateParts<Records extends keyof EmulatorState> {
  readonly state: Pick<EmulatorState, Records>;
}

/** What the core is built from. */
export interface CoreOptions {
  timeline: Timeline;
  rateLimits: boolean;
  urlPolicy: UrlPolicy;
  /** Test seams of webhook deliveries (resolver, dialling, trusted CA); unset in normal use. */
  webhookNetwork?: WebhookNetwork | undefined;
  /** How failed webhook attempts are retried (default `real`). */
  retrySchedule?: RetrySchedule | undefined;
  persistence: Persistence;
  state: EmulatorState;
}

/**
 * The running emulator without HTTP: the state, the clocks (the global one and the workspaces'
 * own), the webhook service, the key index, and the side effects every operation shares (events,
 * persistence, message timers). Operations live in one file per resource beside it (`applications.ts`, `keys.ts`, `messages.ts`, …).
 */
export class EmulatorCore {
  #state: EmulatorState;
  /** The global timeline: the seed workspace's and every workspace's without a clock of its own. */
  readonly timeline: Timeline;
  /** Every timeline: {@link timeline} and the workspaces' own. */
  readonly clocks: WorkspaceClocks;
  /** The /v1 rate limits of every key (`rateLimits: false` switches them off). */
  readonly rateLimits: RateLimits;
  readonly urlPolicy: UrlPolicy;
  readonly persistence: Persistence;
  #webhooks: WebhookService;
  /** Key id by SHA-256 of the key: a hash index, so lookup time says nothing about the key. */
  #keyIndex = new Map<string, string>();
  /** Sends' Idempotency-Keys: held while in flight, replayed, committed. */
  readonly idempotency = new SendIdempotency(() => this.state);
  /**
   * Message ids in acceptance order, so a page of the newest is read from the end instead of
   * scanning every message (`GET /_emulator/messages` took 51 ms at 80,000 messages).
   */
  #messageOrder: string[] = [];
  /** What happens, as it happens: the source of `GET /_emulator/stream`. Survives a reset. */
  readonly activity: ActivityFeed;
  /** Injected faults of `/_emulator/faults` (in memory only; a reset clears them). */
  readonly faults = new FaultTable();
  /** The status timers of each timeline's messages. */
  #timers = new Map<Timeline, MessageTimers>();
  readonly #outbox = new EventOutbox(this);
  readonly #webhookNetwork: WebhookNetwork | undefined;
  readonly #retrySchedule: RetrySchedule | undefined;

  constructor(options: CoreOptions) {
    this.#state = options.state;
    this.timeline = options.timeline;
    this.rateLimits = new RateLimits(options.rateLimits, () => this.#state.rate_limits);
    this.urlPolicy = options.urlPolicy;
    this.#webhookNetwork = options.webhookNetwork;
    this.#retrySchedule = options.retrySchedule;
    this.persistence = options.persistence;
    this.clocks = new WorkspaceClocks(options.timeline);
    this.clocks.rebuild(this.state.workspaces);
    // An item is dated in its workspace's time: an item's applications are all of one workspace.
    this.activity = new ActivityFeed((draft) => {
      if ('workspace_id' in draft && draft.workspace_id) return this.nowIn(draft.workspace_id);
      const applicationId = draft.application_ids[0];
      return applicationId === undefined ? this.now() : this.nowFor(applicationId);
    });
    this.#webhooks = this.#createWebhooks();
    this.#indexState();
  }

  /** The records; replaced as a whole only by {@link replaceState}. */
  get state(): EmulatorState {
    return this.#state;
  }

  /** The webhook service of the current state (a new one after {@link replaceState}). */
  get webhooks(): WebhookService {
    return this.#webhooks;
  }

  /** Message ids in acceptance order (oldest first). */
  get messageOrder(): readonly string[] {
    return this.#messageOrder;
  }

  /** How many keys authenticate. */
  get keyCount(): number {
    return this.#keyIndex.size;
  }

  /** Whether a key with this hash exists. */
  hasKeyHash(hash: string): boolean {
    return this.#keyIndex.has(hash);
  }

  /** Drops the ids of messages no longer stored (a workspace's reset) from the acceptance order. */
  forgetRemovedMessages(): void {
    const { messages } = this.#state;
    this.#messageOrder = this.#messageOrder.filter((messageId) => messages[messageId] !== undefined);
  }

  /** Global emulator time (the seed workspace's, and every workspace's without its own clock). */
  now(): number {
    return this.timeline.clock.now();
  }

  /** Emulator time in a workspace: its own clock's, or the global one. */
  nowIn(workspaceId: string | undefined): number {
    return this.clocks.of(workspaceId).clock.now();
  }

  /** Emulator time in an application's workspace. */
  nowFor(applicationId: string): number {
    return this.nowIn(this.state.applications[applicationId]?.workspace_id);
  }

  /** Whether changes reach a disk (`--data-dir`); without it, journal entries are not even built. */
  get durable(): boolean {
    return this.persistence !== memoryPersistence;
  }

  /** Something changed that a snapshot should catch (coalesced). */
  changed(): void {
    this.persistence.changed();
  }

  /** Appends durable records (before answering a 202); throws `PersistenceError` when it cannot. */
  journal(entries: readonly JournalEntry[]): void {
    this.persistence.journal(entries);
  }

  /** Whether the data dir can be written (always ok without one). */
  persistenceHealth(): PersistenceHealth {
    return this.persistence.health();
  }

  /** Swaps in a new state (reset, load): timers of the old one are cancelled, new ones scheduled. */
  async replaceState(state: EmulatorState): Promise<void> {
    await this.webhooks.close();
    this.clocks.clearJobs();
    this.#state = state;
    this.clocks.rebuild(state.workspaces);
    this.idempotency.clear();
    this.#webhooks = this.#createWebhooks();
    this.#timers = new Map();
    this.#indexState();
    this.restoreTimers();
    this.faults.clear();
    this.activity.clear();
    this.activity.publish({ kind: 'reset', application_ids: [] });
  }

  /** Schedules every timer the state implies: message status steps and pending deliveries. */
  restoreTimers(): void {
    const byTimeline = new Map<MessageTimers, MessageRecord[]>();
    for (const record of Object.values(this.state.messages)) {
      const timers = this.#timersIn(record.workspace_id);
      const records = byTimeline.get(timers);
      if (records) records.push(record);
      else byTimeline.set(timers, [record]);
    }
    for (const [timers, records] of byTimeline) timers.restore(records);
    this.webhooks.restore();
  }

  /**
   * Forgets the message timers of a workspace's own clock, whose jobs were all cancelled (its
   * reset): its next messages get fresh ones.
   */
  dropTimers(timeline: Timeline): void {
    this.#timers.delete(timeline);
  }

  /** Registers a key hash for authentication. */
  indexKey(hash: string, keyId: string): void {
    this.#keyIndex.set(hash, keyId);
  }

  /** Forgets a revoked key's hash: it no longer authenticates. */
  unindexKey(hash: string): void {
    this.#keyIndex.delete(hash);
  }

  /** The key record for a presented key (`hash`: its hash, when already computed), if it exists. */
  findKey(presented: string, hash = hashKey(presented)) {
    const keyId = this.#keyIndex.get(hash);
    return keyId === undefined ? undefined : this.state.keys[keyId];
  }

  /**
   * Builds an event about `source`, routes it (spec 6.1), queues its deliveries and keeps it
   * among the recent events. Returns the envelope and the deliveries it created.
   *
   * With a data dir, the deliveries are journaled with `alongside` (the records the event is
   * about) before anything changes in memory and before an attempt can leave, so a restart
   * resumes them under the same event id. A failed write throws `PersistenceError` and changes
   * nothing; the caller applies its own changes only after this returns.
   */
  emit<Type extends WebhookEvent['type']>(
    type: Type,
    data: EventData<Type>,
    source: ApplicationRecord,
    options: { livemode?: boolean; alongside?: readonly JournalEntry[] } = {},
  ): Emitted<Type> {
    return this.#outbox.emit(type, data, source, options);
  }

  /** Queues deliveries built by the webhook service (test, replay), journaled first (data dir only). */
  queueDeliveries(deliveries: readonly DeliveryRecord[]): void {
    this.#outbox.queue(deliveries);
  }

  /** Schedules the next status step of a message not yet announced. */
  scheduleMessage(record: MessageRecord): void {
    this.#timersIn(record.workspace_id).add(record);
  }

  /** The status timers on the workspace's timeline, created on first use. */
  #timersIn(workspaceId: string): MessageTimers {
    const timeline = this.clocks.of(workspaceId);
    let timers = this.#timers.get(timeline);
    if (!timers) {
      timers = new MessageTimers(
        timeline.scheduler,
        (id) => this.state.messages[id],
        (records) => this.#outbox.announceSteps(records),
        () => timeline.clock.now(),
      );
      this.#timers.set(timeline, timers);
    }
    return timers;
  }

  #createWebhooks(): WebhookService {
    const service = new WebhookService({
      getState: () => this.state.webhooks,
      clock: this.timeline.clock,
      scheduler: this.timeline.scheduler,
      timeOf: (applicationId) => this.clocks.of(this.state.applications[applicationId]?.workspace_id),
      urlPolicy: this.urlPolicy,
      ...(this.#webhookNetwork?.resolveHost ? { resolveHost: this.#webhookNetwork.resolveHost } : {}),
      ...(this.#webhookNetwork ? { network: this.#webhookNetwork } : {}),
      ...(this.#retrySchedule ? { retrySchedule: this.#retrySchedule } : {}),
    });
    service.outcomes.own((outcome) => this.#applyWebhookOutcome(outcome));
    return service;
  }

  /** Applies what the webhook service did: a change for the snapshot, a delivery's progress for the feed. */
  #applyWebhookOutcome(outcome: WebhookOutcome): void {
    if (outcome.kind === 'changed') {
      this.changed();
      return;
    }
    const { delivery, chaos } = outcome;
    this.activity.publish({
      kind: 'delivery',
      application_ids: [delivery.application_id],
      status: delivery.status,
      delivery: toDeliveryView(delivery),
      ...(chaos ? { chaos } : {}),
    });
  }

  /** Stores an accepted or received message (after its journal entry is written). */
  addMessage(record: MessageRecord): void {
    this.state.messages[record.message.id] = record;
    this.#messageOrder.push(record.message.id);
    this.activity.publish({
      kind: 'message',
      application_ids: [record.application_id],
      status: record.message.status,
      message: record.message,
    });
  }

  #indexState(): void {
    this.#keyIndex = new Map(Object.values(this.state.keys).map((key) => [key.hash, key.id]));
    // A dictionary keeps insertion order, which is acceptance order (snapshot, then journal).
    this.#messageOrder = Object.keys(this.state.messages);
  }
}
