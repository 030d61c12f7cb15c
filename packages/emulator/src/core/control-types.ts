import type {
  Connection,
  Environment,
  ListEnvelope,
  Message,
  SendMessageParams,
  WebhookEvent,
  WebhookEventType,
} from '@parley/sdk';
import type { ClockMode } from '../clock/clock-types';
import type { FaultAnswer } from '../domain/faults';
import type { MagicRecipient } from '../domain/magic-recipients';
import type { ApplicationRecord } from '../domain/records';
import type { ChaosKind, ChaosSetting } from '../domain/webhook-chaos';
import type { PersistenceHealth } from '../store/persistence';
import type { DeliveryView, EndpointView } from '../webhooks/webhook-service';
import type { ActivityItem } from './activity-feed';
import type { ExportOptions, ImportView, StateBundle } from './bundle-types';
import type { ConnectionWithTemplates } from './connections';
import type {
  ConversationItem,
  ConversationQuery,
  ConversationStatusStep,
  ConversationSummary,
  ConversationView,
  CustomerMessageInput,
} from './conversation-types';
import type { FaultView } from './fault-table';
import type { HarLog, HarOptions } from './har-types';
import type { KeyView } from './keys';
import type { StateCounts } from './state-counts';
import type { UsageView } from './usage';
import type { WorkspaceClockView, WorkspaceView } from './workspaces';

// Types only: the typed client (`@parley/emulator/control`) imports this file, and must pull no
// code of the emulator with it.

export type {
  ActivityItem,
  ConnectionWithTemplates,
  ConversationItem,
  ConversationQuery,
  ConversationStatusStep,
  ConversationSummary,
  ConversationView,
  CustomerMessageInput,
  DeliveryView,
  EndpointView,
  ExportOptions,
  FaultView,
  HarLog,
  HarOptions,
  ImportView,
  KeyView,
  MagicRecipient,
  PersistenceHealth,
  StateBundle,
  StateCounts,
  UsageView,
  WorkspaceClockView,
  WorkspaceView,
};

/** An application (`POST /_emulator/applications`). */
export type ApplicationView = ApplicationRecord;
/**
 * An endpoint's chaos as the control API shows it: the setting of each kind set (`next` counting
 * down), the seed (null before any was set), and how many deliveries got each kind so far.
 */
export type ChaosView = {
  endpoint_id: string;
  seed: number | null;
  applied: Partial<Record<ChaosKind, number>>;
} & { [kind in ChaosKind]?: ChaosSetting };

/** `GET /_emulator/health`: `persistence` only with a data dir (whether it can be written). */
export interface HealthView {
  ok: true;
  version: string;
  counts: StateCounts;
  persistence?: PersistenceHealth;
}

/** The global clock (`GET /_emulator/clock`). */
export interface ClockView {
  now: string;
  mode: ClockMode;
}

/** Paging of a control list: `limit` 1–100 (default 20) and a `next_cursor` the list returned. */
export interface ControlPageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * `GET /_emulator/activity`: paging, and filters that each keep only matching items:
 * `applicationId`, `type` (an item kind such as `request`, or an event type such as
 * `message.status_updated`) and `status` (`delivered`, `404`, or a class such as `4xx`).
 */
export interface ActivityQuery extends ControlPageQuery {
  applicationId?: string;
  type?: string;
  status?: string;
}

/** `POST /_emulator/workspaces`. `clock` gives it a clock of its own, from `now` (ISO 8601). */
export interface CreateWorkspaceInput {
  name: string;
  clock?: ClockMode;
  now?: string;
}

/** `POST /_emulator/applications` (default workspace: the seed workspace). */
export interface CreateApplicationInput {
  name: string;
  environment: Environment;
  workspace_id?: string;
}

/** `POST /_emulator/applications/{id}/keys`. */
export interface CreateKeyInput {
  scopes?: string[];
  /** Needed for the first live key of a workspace. */
  accept_agreement?: boolean;
}

/** `POST /_emulator/applications/{id}/endpoints`: `secret` is generated when absent. */
export interface CreateEndpointInput {
  url: string;
  events: WebhookEventType[];
  active?: boolean;
  secret?: string;
  /** What the endpoint is for, shown under its URL: 1–200 characters, no control characters. */
  description?: string | null;
}

/** `PATCH /_emulator/endpoints/{id}`. */
export interface UpdateEndpointInput {
  active?: boolean;
  events?: WebhookEventType[];
  /** A new description, or `null` to remove it. */
  description?: string | null;
}

/** `PUT /_emulator/endpoints/{id}/chaos`: a setting per kind, and a seed to repeat a run. */
export type ChaosInput = { [kind in ChaosKind]?: ChaosSetting } & { seed?: number };

/** `POST /_emulator/applications/{id}/connections`: a simulated number of a live application. */
export interface CreateConnectionInput {
  phone_number: string;
  name?: string;
}

/** `POST /_emulator/connections/{id}/inbound`: a customer's text. */
export interface InboundInput {
  from: string;
  text: string;
}

/** `POST /_emulator/faults` (see docs/emulator.md#faults). */
export interface CreateFaultInput {
  method?: string | null;
  path?: string | null;
  key_id?: string | null;
  key_prefix?: string | null;
  times?: number;
  fault: FaultAnswer;
}

/** `GET /_emulator/idle`: `timeoutMs` 1–60,000 (default 10,000) real milliseconds. */
export interface IdleOptions {
  timeoutMs?: number;
}

/**
 * `{ idle: true }` once idle; at the timeout `{ idle: false, in_flight }`, `in_flight` counting the
 * deliveries whose attempt is due at their clock's time (in flight, or about to leave).
 */
export type IdleView = { idle: true } | { idle: false; in_flight: number };

/**
 * The control API (DESIGN §4): in process as `emulator.control`, over HTTP as
 * `createControlClient()` from `@parley/emulator/control`. Both have exactly these methods and
 * answers; lists are the list envelope, and a refused call throws an error carrying the spec's
 * error (`status`, `code`, `message`, `details`). Inputs are checked at run time as request bodies
 * are (400 `validation_error` naming the field).
 */
export interface EmulatorControl {
  health(): Promise<HealthView>;
  /** Back to the seed state. */
  reset(): Promise<{ ok: true }>;
  getClock(): Promise<ClockView>;
  /** `ms`: a whole number of milliseconds from 0 to 366 days; runs every job that falls due, in time order. */
  advanceClock(ms: number): Promise<{ now: string }>;
  /**
   * Resolves once no delivery attempt is in flight and nothing is due at the current clock time
   * (`{ idle: true }`), or at `timeoutMs` with `{ idle: false, in_flight }`.
   */
  idle(options?: IdleOptions): Promise<IdleView>;
  /** An isolated tenant; with `clock`, moved by {@link advanceWorkspaceClock} alone. */
  createWorkspace(input: CreateWorkspaceInput): Promise<WorkspaceView>;
  listWorkspaces(query?: ControlPageQuery): Promise<ListEnvelope<WorkspaceView>>;
  /** The workspace's own clock, or the global one it shares (`own_clock: false`). */
  getWorkspaceClock(id: string): Promise<WorkspaceClockView>;
  /** Moves a workspace's own clock (409 `workspace_clock_shared` on the global clock). */
  advanceWorkspaceClock(id: string, ms: number): Promise<{ workspace_id: string; now: string }>;
  /** That workspace's messages, deliveries, events and usage go; set-up and other workspaces stay. */
  resetWorkspace(id: string): Promise<{ ok: true; workspace_id: string }>;
  createApplication(input: CreateApplicationInput): Promise<ApplicationView>;
  listApplications(
    query?: ControlPageQuery & { workspaceId?: string },
  ): Promise<ListEnvelope<ApplicationView>>;
  /** The answer is the only place the key is shown. */
  createKey(applicationId: string, input?: CreateKeyInput): Promise<KeyView & { key: string }>;
  /** The key then gets 401 `invalid_api_key`. */
  revokeKey(id: string): Promise<void>;
  /** The answer is the only place the secret is shown. */
  createEndpoint(
    applicationId: string,
    input: CreateEndpointInput,
  ): Promise<EndpointView & { secret: string }>;
  listEndpoints(query?: ControlPageQuery & { applicationId?: string }): Promise<ListEnvelope<EndpointView>>;
  updateEndpoint(id: string, input: UpdateEndpointInput): Promise<EndpointView>;
  deleteEndpoint(id: string): Promise<void>;
  rotateSecret(id: string): Promise<{ secret: string; previous_expires_at: string }>;
  /** Sends `webhook.test` to that endpoint alone. */
  testEndpoint(id: string): Promise<{ event_id: string }>;
  /** Replaces the endpoint's webhook chaos. */
  setChaos(endpointId: string, input: ChaosInput): Promise<ChaosView>;
  getChaos(endpointId: string): Promise<ChaosView>;
  /** Chaos off; deliveries already planned keep theirs. */
  clearChaos(endpointId: string): Promise<void>;
  listDeliveries(
    query?: ControlPageQuery & { endpointId?: string; applicationId?: string },
  ): Promise<ListEnvelope<DeliveryView>>;
  /** The same event (same id) delivered again. */
  replayDelivery(id: string): Promise<DeliveryView>;
  usage(applicationId?: string): Promise<UsageView>;
  createConnection(applicationId: string, input: CreateConnectionInput): Promise<Connection>;
  disconnectConnection(id: string): Promise<Connection>;
  /** Opens that sender's 24 h window. */
  receiveInbound(connectionId: string, input: InboundInput): Promise<Message>;
  /** Messages newest first, optionally of one application. */
  listMessages(query?: ControlPageQuery & { applicationId?: string }): Promise<ListEnvelope<Message>>;
  /** The application's connections (sandbox fixtures or simulated live numbers), each with its templates. */
  listApplicationConnections(
    applicationId: string,
    query?: ControlPageQuery,
  ): Promise<ListEnvelope<ConnectionWithTemplates>>;
  /** The body of `POST /v1/messages`, sent as the application without a key (the console's Send). */
  sendMessage(applicationId: string, input: SendMessageParams): Promise<Message>;
  /** The application's threads, one per (connection, customer number), newest first. */
  listConversations(
    applicationId: string,
    query?: ControlPageQuery & { connectionId?: string },
  ): Promise<ListEnvelope<ConversationSummary>>;
  /** One thread (newest 200 messages, oldest first) with its window, daily cap and read rule. */
  getConversation(applicationId: string, query: ConversationQuery): Promise<ConversationView>;
  /**
   * The customer writes: a live application as {@link receiveInbound}; a sandbox one as a synthetic
   * `message.received` with that sender and text.
   */
  messageAsCustomer(applicationId: string, input: CustomerMessageInput): Promise<Message>;
  listEvents(query?: ControlPageQuery & { applicationId?: string }): Promise<ListEnvelope<WebhookEvent>>;
  /**
   * The kept activity (what `GET /_emulator/stream` sends), newest first, secrets masked; the
   * cursor stays put while new items arrive.
   */
  listActivity(query?: ActivityQuery): Promise<ListEnvelope<ActivityItem>>;
  /** The next `times` matching /v1 requests get `fault` instead of the API's answer. */
  createFault(input: CreateFaultInput): Promise<FaultView>;
  /** Every fault in matching order, used-up ones included (`remaining: 0`). */
  listFaults(query?: ControlPageQuery): Promise<ListEnvelope<FaultView>>;
  deleteFault(id: string): Promise<void>;
  clearFaults(): Promise<void>;
  /** Sandbox recipients with a fixed, documented outcome. */
  listMagicNumbers(query?: ControlPageQuery): Promise<ListEnvelope<MagicRecipient>>;
  /**
   * The state (or one workspace's), its clocks and activity as one versioned bundle: keys as
   * hashes, signing secrets only with `includeSecrets`. 404 for an unknown workspace.
   */
  export(options?: ExportOptions): Promise<StateBundle>;
  /**
   * Starts from a bundle of {@link export}: checked whole first (400 `validation_error` whose
   * `details.field` is the path in the bundle, another version included), then swapped in at once
   * and made durable before answering; a refused bundle changes nothing.
   */
  import(bundle: unknown): Promise<ImportView>;
  /** The recent /v1 traffic (optionally webhook delivery attempts too) as a HAR 1.2 log, secrets masked. */
  har(options?: HarOptions): Promise<HarLog>;
}
