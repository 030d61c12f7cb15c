import type { KeyRecord } from '../domain/api-keys';
import { createDictionary, toDictionary } from '../domain/dictionary';
import type { RateLimitState } from '../domain/rate-limit-window';
import type {
  ApplicationRecord,
  ConnectionRecord,
  EventRecord,
  IdempotencyRecord,
  MessageRecord,
  WorkspaceRecord,
} from '../domain/records';
import { createWebhooksState, type WebhooksState } from './webhook-state';

/** The whole persisted state: plain JSON. */
export interface EmulatorState {
  version: 1;
  workspaces: Record<string, WorkspaceRecord>;
  applications: Record<string, ApplicationRecord>;
  keys: Record<string, KeyRecord>;
  connections: Record<string, ConnectionRecord>;
  messages: Record<string, MessageRecord>;
  /** By `${key_id}\n${idempotency key}`. */
  idempotency: Record<string, IdempotencyRecord>;
  /** Opening time (ms) of each sender's 24 h window, by `${connection_id}\n${sender}`. */
  windows: Record<string, number>;
  /** Accepted live sends per workspace and UTC day. */
  daily_sends: Record<string, { day: string; count: number }>;
  rate_limits: RateLimitState;
  /** Most recent last, at most {@link MAX_RECENT_EVENTS}. */
  events: EventRecord[];
  webhooks: WebhooksState;
}

/** How many recent events `GET /_emulator/events` can show. */
export const MAX_RECENT_EVENTS = 500;

/** An empty state. */
export function createEmptyState(): EmulatorState {
  return {
    version: 1,
    workspaces: createDictionary(),
    applications: createDictionary(),
    keys: createDictionary(),
    connections: createDictionary(),
    messages: createDictionary(),
    idempotency: createDictionary(),
    windows: createDictionary(),
    daily_sends: createDictionary(),
    rate_limits: createDictionary(),
    events: [],
    webhooks: createWebhooksState(),
  };
}

/**
 * A state read from a data dir, with every collection turned back into a {@link Dictionary}
 * (JSON.parse builds plain objects, on which an id like `constructor` would find a function).
 */
export function hydrateState(loaded: EmulatorState): EmulatorState {
  return {
    ...loaded,
    workspaces: toDictionary(loaded.workspaces),
    applications: toDictionary(loaded.applications),
    keys: toDictionary(loaded.keys),
    connections: toDictionary(loaded.connections),
    messages: toDictionary(loaded.messages),
    idempotency: toDictionary(loaded.idempotency),
    windows: toDictionary(loaded.windows),
    daily_sends: toDictionary(loaded.daily_sends),
    rate_limits: toDictionary(loaded.rate_limits),
    events: Array.isArray(loaded.events) ? loaded.events : [],
    webhooks: {
      endpoints: toDictionary(loaded.webhooks?.endpoints),
      deliveries: toDictionary(loaded.webhooks?.deliveries),
    },
  };
}
