import type { ClockMode } from '../clock/clock-types';
import type { KeyRecord } from '../domain/api-keys';
import type { KeyWindow } from '../domain/rate-limit-window';
import type { ApplicationRecord, ConnectionRecord, EventRecord, MessageRecord } from '../domain/records';
import type { DeliveryRecord, EndpointRecord } from '../store/webhook-state';
import type { ActivityItem } from './activity-feed';

// Types and constants only: the typed client (`@parley/emulator/control`) imports this file.

/** The format name every bundle carries. */
export const BUNDLE_FORMAT = 'parley-emulator-bundle';
/** The one bundle version this emulator writes and reads. */
export const BUNDLE_VERSION = 1;

/**
 * The most a bundle may hold: 64 MiB, whether it comes as `POST /_emulator/import`'s body, as
 * `--import FILE` or as the answer of `GET /_emulator/export` read by the control client (and the
 * most of a HAR that client reads). A bundle is parsed whole in memory (a few times its size in
 * heap while it is checked), so the bound keeps an import within a few hundred MB.
 */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

/** A clock in a bundle: its mode and the emulator time it showed at the export. */
export interface BundleClock {
  mode: ClockMode;
  now: string;
}

/** A workspace in a bundle; `clock` only for a workspace with a clock of its own. */
export interface BundleWorkspace {
  id: string;
  name: string;
  created_at: string;
  agreement_accepted_at: string | null;
  clock?: BundleClock;
}

/** An endpoint in a bundle: `secret` and `previous_secret` are null unless secrets were asked for. */
export type BundleEndpoint = Omit<EndpointRecord, 'secret' | 'previous_secret'> & {
  secret: string | null;
  previous_secret: EndpointRecord['previous_secret'];
};

/** A job the records imply: read from them again on import, listed for people reading the file. */
export interface BundlePendingJob {
  kind: 'message_status' | 'delivery_attempt';
  /** The message's or the delivery's id. */
  id: string;
  /** Emulator time it falls due. */
  at: string;
}

/**
 * `GET /_emulator/export`: the whole state (or one workspace's), its clocks and its activity
 * history, in one JSON document that `POST /_emulator/import`, `parley-emulator --import FILE`
 * and `createEmulator({ import })` start from (see docs/emulator.md#export-and-import).
 */
export interface StateBundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  /** The emulator that wrote it (for people: any emulator reading version 1 reads it). */
  emulator_version: string;
  /** Global emulator time at the export. */
  exported_at: string;
  /** The workspace exported alone, or null for everything. */
  workspace_id: string | null;
  /** Whether endpoints carry their signing secrets (`include_secrets=true`). */
  secrets_included: boolean;
  /** The global clock. */
  clock: BundleClock;
  workspaces: BundleWorkspace[];
  applications: ApplicationRecord[];
  /** API keys as SHA-256 hashes and display prefixes: never the keys. */
  keys: KeyRecord[];
  connections: ConnectionRecord[];
  endpoints: BundleEndpoint[];
  /** Oldest accepted first. */
  messages: MessageRecord[];
  /** The recent events, oldest first. */
  events: EventRecord[];
  /** With their attempts; a pending one's `next_attempt_at` is when it is tried again. */
  deliveries: DeliveryRecord[];
  pending_jobs: BundlePendingJob[];
  /** Idempotency-Keys of sends still remembered: the body's fingerprint then the message id. */
  idempotency: { key_id: string; idempotency_key: string; record: string }[];
  /** Opening time (ms) of each customer's 24 h window. */
  messaging_windows: { connection_id: string; sender: string; opened_at: number }[];
  /** Accepted live sends of each workspace's current UTC day. */
  daily_sends: { workspace_id: string; day: string; count: number }[];
  /** Each key's current rate-limit window. */
  rate_limits: ({ key_id: string } & KeyWindow)[];
  /** The activity history (masked, oldest first) and the feed's last sequence number. */
  activity: { last_seq: number; items: ActivityItem[] };
}

/** `GET /_emulator/export` options. */
export interface ExportOptions {
  /** Only this workspace: its records, its clock, its activity. */
  workspaceId?: string;
  /** Endpoints keep their signing secrets (needed to sign deliveries the same way after import). */
  includeSecrets?: boolean;
}

/** What `POST /_emulator/import` answers once the bundle is the state (and on disk, with a data dir). */
export interface ImportView {
  ok: true;
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  /** The global clock after the import. */
  clock: { now: string; mode: ClockMode };
  counts: {
    workspaces: number;
    applications: number;
    messages: number;
    deliveries: number;
    pending_jobs: number;
  };
  /** Endpoints that got a new signing secret because the bundle had none. */
  new_secrets: number;
}
