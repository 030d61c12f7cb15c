import type { Connection, Environment, Message, WebhookEvent } from '@parley/sdk';
import type { KeyRecord } from '../domain/api-keys';
import { createDictionary, toDictionary } from '../domain/dictionary';
import type { RateLimitState } from '../domain/rate-limit-window';
import type { TemplateDefinition } from '../domain/sandbox-fixtures';
import { createWebhooksState, type WebhooksState } from '../webhooks/webhook-service';

/** An isolated tenant. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: string;
  /** When the developer agreement was accepted (first live key), or null. */
  agreement_accepted_at: string | null;
}

/** An application of a workspace, in one environment. */
export interface ApplicationRecord {
  id: string;
  workspace_id: string;
  name: string;
  environment: Environment;
  created_at: string;
}

/** A simulated live connection (sandbox connections are fixed fixtures, never stored). */
export interface ConnectionRecord extends Connection {
  application_id: string;
  /** Templates of its own, after the two every connection carries (from a seed file). Never on the wire. */
  templates?: TemplateDefinition[];
}

/** A message with what the emulator needs to move it along. */
export interface MessageRecord {
  /** The message as accepted; its current form is `messageAt(record, now)`. */
  message: Message;
  application_id: string;
  workspace_id: string;
  /** Emulator time of acceptance in ms; statuses are a function of age from here. */
  accepted_at: number;
  /** How many of its status steps have been announced with a `message.status_updated` event. */
  announced: number;
}

/**
 * A stored idempotent send, as one string: the body's fingerprint (43 characters, see
 * `bodyFingerprint`) followed by the message id. One string, not an object, per send: the
 * emulator keeps one for every message, and fewer objects mean shorter garbage collections. Its
 * age is the message's.
 */
export type IdempotencyRecord = string;

/** A recent event and the applications it was routed to. */
export interface EventRecord {
  event: WebhookEvent;
  application_ids: string[];
}

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
