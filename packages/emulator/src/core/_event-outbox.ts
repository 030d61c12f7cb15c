import type { WebhookEvent } from '@parley/sdk';
import { buildEvent, type EventData, routeEvent } from '../domain/event-routing';
import { messageAtStep, stepsOf } from '../domain/message-lifecycle';
import type { ApplicationRecord, MessageRecord } from '../domain/records';
import { PersistenceError } from '../store/data-dir-errors';
import type { JournalEntry } from '../store/persistence';
import type { EmulatorState } from '../store/state';
import { MAX_RECENT_EVENTS } from '../store/state';
import type { DeliveryRecord } from '../store/webhook-state';
import type { WebhookService } from '../webhooks/webhook-service';
import type { ActivityFeed } from './activity-feed';

/** What {@link EventOutbox.emit} did: the event and the deliveries it queued. */
export interface Emitted<Type extends WebhookEvent['type']> {
  event: Extract<WebhookEvent, { type: Type }>;
  deliveries: DeliveryRecord[];
}

/** An event built and routed, its deliveries built but not yet queued. */
interface PreparedEvent<Type extends WebhookEvent['type']> {
  event: Extract<WebhookEvent, { type: Type }>;
  applicationIds: string[];
  deliveries: DeliveryRecord[];
}

/**
 * What the outbox works with: the records events are routed by and kept in, the webhook service
 * that builds and queues deliveries, the activity feed, time, and the data dir. The core provides
 * it (`emulator-core.ts`); the outbox never sees the rest of the core.
 */
export interface OutboxDeps {
  readonly state: Pick<EmulatorState, 'applications' | 'events' | 'webhooks'>;
  readonly webhooks: Pick<WebhookService, 'deliveriesFor' | 'queue'>;
  readonly activity: Pick<ActivityFeed, 'publish'>;
  /** Whether changes reach a disk: without one, journal entries are not even built. */
  readonly durable: boolean;
  nowIn(workspaceId: string): number;
  /** Appends durable records; throws `PersistenceError` when it cannot. */
  journal(entries: readonly JournalEntry[]): void;
  /** Something changed that a snapshot should catch. */
  changed(): void;
}

/**
 * How events leave: each is built, its deliveries built, then (with a data dir) journaled with
 * the records the event is about, and only then recorded and queued. So an attempt never leaves
 * before a restart could resume it under the same event id, and a failed write changes nothing.
 */
export class EventOutbox {
  constructor(private readonly core: OutboxDeps) {}

  /** Builds, routes (spec 6.1), journals with `alongside`, records and queues one event. */
  emit<Type extends WebhookEvent['type']>(
    type: Type,
    data: EventData<Type>,
    source: ApplicationRecord,
    options: { livemode?: boolean; alongside?: readonly JournalEntry[] } = {},
  ): Emitted<Type> {
    const prepared = this.#prepare(type, data, source, options.livemode);
    if (this.core.durable) this.#journal(options.alongside ?? [], prepared.deliveries);
    this.#commit(prepared);
    return { event: prepared.event, deliveries: prepared.deliveries };
  }

  /** Queues deliveries built by the webhook service (test, replay), journaled first. */
  queue(deliveries: readonly DeliveryRecord[]): void {
    if (this.core.durable) this.#journal([], deliveries);
    this.core.webhooks.queue(deliveries);
  }

  /**
   * Announces the next status step of each message, in one journal line: the advanced
   * `announced` counters with the events' deliveries, so a restart never announces a step twice.
   * Returns false, changing nothing, when the data dir refuses the line (the timers hold them).
   */
  announceSteps(records: readonly MessageRecord[]): boolean {
    const steps: { record: MessageRecord; prepared: PreparedEvent<'message.status_updated'> | undefined }[] =
      [];
    for (const record of records) {
      const step = stepsOf(record)[record.announced];
      if (!step) continue;
      const app = this.core.state.applications[record.application_id];
      // `record.message` stays as accepted (replays answer it); the event carries the new status.
      const message = messageAtStep(record, step);
      steps.push({ record, prepared: app && this.#prepare('message.status_updated', { message }, app) });
    }
    if (steps.length === 0) return true;
    if (this.core.durable) {
      const entries: JournalEntry[] = [];
      for (const { record, prepared } of steps) {
        entries.push({
          c: 'messages',
          id: record.message.id,
          v: { ...record, announced: record.announced + 1 },
        });
        for (const delivery of prepared?.deliveries ?? []) {
          entries.push({ c: 'deliveries', id: delivery.id, v: delivery });
        }
      }
      try {
        this.core.journal(entries);
      } catch (error) {
        if (error instanceof PersistenceError) return false;
        throw error;
      }
    }
    for (const { record, prepared } of steps) {
      record.announced++;
      if (prepared) {
        this.#commit(prepared);
        const { message } = prepared.event.data;
        this.core.activity.publish({
          kind: 'message',
          application_ids: [record.application_id],
          status: message.status,
          message,
        });
      }
    }
    this.core.changed();
    return true;
  }

  #prepare<Type extends WebhookEvent['type']>(
    type: Type,
    data: EventData<Type>,
    source: ApplicationRecord,
    livemode = source.environment === 'live',
  ): PreparedEvent<Type> {
    const event = buildEvent(type, data, this.core.nowIn(source.workspace_id), livemode);
    const applicationIds = routeEvent(source, this.core.state.applications);
    // Without an endpoint, building deliveries (which serialises the event) is skipped.
    const deliveries = this.#hasEndpoints() ? this.core.webhooks.deliveriesFor(event, applicationIds) : [];
    return { event, applicationIds, deliveries };
  }

  /** Records the event among the recent ones and queues its deliveries. */
  #commit(prepared: { event: WebhookEvent; applicationIds: string[]; deliveries: DeliveryRecord[] }): void {
    const events = this.core.state.events;
    events.push({ event: prepared.event, application_ids: prepared.applicationIds });
    this.core.activity.publish({
      kind: 'event',
      application_ids: prepared.applicationIds,
      type: prepared.event.type,
      event: prepared.event,
    });
    // Trimmed in batches: one splice per 100 events, not a 500-element shift per event.
    if (events.length >= MAX_RECENT_EVENTS + 100) events.splice(0, events.length - MAX_RECENT_EVENTS);
    this.core.webhooks.queue(prepared.deliveries);
  }

  #journal(alongside: readonly JournalEntry[], deliveries: readonly DeliveryRecord[]): void {
    if (alongside.length === 0 && deliveries.length === 0) return;
    const entries = [...alongside];
    for (const delivery of deliveries) entries.push({ c: 'deliveries', id: delivery.id, v: delivery });
    this.core.journal(entries);
  }

  #hasEndpoints(): boolean {
    for (const _ in this.core.state.webhooks.endpoints) return true;
    return false;
  }
}
