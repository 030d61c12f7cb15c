import type { ListEnvelope } from '@parley/sdk';
import type { ControlPageQuery } from '../../core/control-types';
import { control } from './control';
import type { Delivery, Message, WebhookEvent } from './control-types';

/** Pages of 100 read at most per list, so one detail never reads more than 1,000 items of each. */
const MAX_PAGES = 10;

/** A message's events and their deliveries; `complete` false when the search stopped at its bound. */
export interface MessageTrail {
  events: WebhookEvent[];
  deliveries: Delivery[];
  complete: boolean;
}

/** One status of a message and when it took it. */
export interface StatusStep {
  status: string;
  at: string;
}

/**
 * The events about `message` (its status updates, its receipt) and the deliveries of those events,
 * oldest first. The event list is newest first: its reading stops at the first page that reaches
 * back before the message was created.
 */
export async function loadMessageTrail(applicationId: string, message: Message): Promise<MessageTrail> {
  const events = await pagesUntil(
    (page) => control.listEvents({ applicationId, ...page }),
    (page) => page.data.some((event) => event.created_at < message.created_at),
  );
  const own = events.items.filter((event) => aboutMessage(event, message.id)).reverse();
  const eventIds = new Set(own.map((event) => event.id));
  // Deliveries are listed newest first, an event's made together when it is: once a page ends past
  // the oldest event's deliveries, the rest are of older events.
  const oldest = own[0]?.id;
  const deliveries =
    oldest === undefined
      ? { items: [], complete: true }
      : await pagesUntil(
          (page) => control.listDeliveries({ applicationId, ...page }),
          (page) =>
            page.data.some((delivery) => delivery.event_id === oldest) &&
            page.data[page.data.length - 1]?.event_id !== oldest,
        );
  return {
    events: own,
    deliveries: deliveries.items.filter((delivery) => eventIds.has(delivery.event_id)).reverse(),
    complete: events.complete && deliveries.complete,
  };
}

/**
 * The statuses the message went through, oldest first: the one it was created with, then one per
 * status event, and its current status if no event says it yet.
 */
export function statusHistory(message: Message, events: readonly WebhookEvent[]): StatusStep[] {
  const steps: StatusStep[] = [];
  for (const event of events) {
    if (event.type === 'message.status_updated' || event.type === 'message.received') {
      steps.push({ status: event.data.message.status, at: event.created_at });
    }
  }
  // Accepted as queued (or received) without an event; a send failed at once has its event then.
  if (steps[0]?.at !== message.created_at) {
    steps.unshift({
      status: message.direction === 'inbound' ? 'received' : 'queued',
      at: message.created_at,
    });
  }
  if (steps[steps.length - 1]!.status !== message.status) {
    steps.push({ status: message.status, at: message.updated_at });
  }
  return steps;
}

function aboutMessage(event: WebhookEvent, messageId: string): boolean {
  const subject = (event.data as { message?: unknown }).message;
  return typeof subject === 'object' && subject !== null && (subject as Message).id === messageId;
}

async function pagesUntil<Item>(
  list: (page: ControlPageQuery) => Promise<ListEnvelope<Item>>,
  enough: (page: ListEnvelope<Item>) => boolean,
): Promise<{ items: Item[]; complete: boolean }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page: ListEnvelope<Item> = await list(cursor === null ? { limit: 100 } : { limit: 100, cursor });
    items.push(...page.data);
    if (page.next_cursor === null || enough(page)) return { items, complete: true };
    cursor = page.next_cursor;
  }
  return { items, complete: false };
}
