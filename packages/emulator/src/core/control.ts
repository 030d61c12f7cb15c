import type { Connection, ListEnvelope, Message, WebhookEvent } from '@parley/sdk';
import type { PageQuery } from '../domain/list-page';
import { MAGIC_RECIPIENTS, type MagicRecipient } from '../domain/magic-recipients';
import type { ApplicationRecord } from '../domain/records';
import type { chaosView } from '../domain/webhook-chaos';
import type { PersistenceHealth } from '../store/persistence';
import type { DeliveryView, EndpointView } from '../webhooks/webhook-service';
import { sendAsApplication } from './accept-send';
import { createApplication } from './applications';
import { advanceGlobalClock, globalClock } from './clock';
import { applicationConnections, type ConnectionWithTemplates } from './connections';
import type { EmulatorCore } from './emulator-core';
import * as endpoints from './endpoints';
import { listEvents } from './events';
import { createFault, type FaultView } from './fault-table';
import { createKey, type keyView, revokeKey } from './keys';
import * as live from './live-connections';
import { listMessages, messagePage } from './messages';
import { type StateCounts, stateCounts } from './state-counts';
import { usage } from './usage';
import type { WorkspaceClockView, WorkspaceView } from './workspaces';
import * as workspaces from './workspaces';

/** An endpoint's chaos as the control API shows it. */
export type ChaosView = ReturnType<typeof chaosView>;

/** What the control object needs from the running emulator. */
export interface ControlRuntime {
  core: EmulatorCore;
  /** Resolves once seeding and loading are done; async operations wait for it. */
  ready(): Promise<void>;
  /** Back to the seed state. */
  reset(): Promise<void>;
  /** Makes the last changes durable (a snapshot with `--data-dir`). */
  commit(): Promise<void>;
  version: string;
}

/**
 * The control API (DESIGN §4) as functions: the HTTP routes under `/_emulator` call exactly these.
 * Inputs are `unknown`: each function checks its input at run time (400 `validation_error` naming
 * the field), as it does for a request body; the fields are those of the route's JSON body.
 */
export interface EmulatorControl {
  /** `persistence` only with a data dir: whether it can be written. */
  health(): { ok: true; version: string; counts: StateCounts; persistence?: PersistenceHealth };
  reset(): Promise<{ ok: true }>;
  getClock(): { now: string; mode: 'real' | 'frozen' };
  /** `ms`: milliseconds from 0 to one year. */
  advanceClock(ms: unknown): Promise<{ now: string }>;
  /**
   * An isolated tenant, `{ name, clock?, now? }`. With `clock` (`frozen` or `real`) it gets a clock
   * of its own, starting at `now` (ISO, default the global time), moved by
   * {@link advanceWorkspaceClock} alone.
   */
  createWorkspace(input: unknown): Promise<WorkspaceView>;
  listWorkspaces(): WorkspaceView[];
  /** The workspace's own clock, or the global one it shares (`own_clock: false`). */
  getWorkspaceClock(id: string): WorkspaceClockView;
  /** Moves a workspace's own clock, running its jobs that fall due in time order (409 on the global clock). */
  advanceWorkspaceClock(id: string, ms: unknown): Promise<{ workspace_id: string; now: string }>;
  /** That workspace's messages, deliveries, events and usage back to its creation; set-up and other workspaces stay. */
  resetWorkspace(id: string): Promise<{ ok: true; workspace_id: string }>;
  /** `{ name, environment: 'live' | 'sandbox', workspace_id? }` (default: the seed workspace). */
  createApplication(input: unknown): Promise<ApplicationRecord>;
  listApplications(): ApplicationRecord[];
  /** `{ scopes?, accept_agreement? }`; the answer is the only place the key is shown. */
  createKey(applicationId: string, input: unknown): Promise<ReturnType<typeof keyView> & { key: string }>;
  /** Revokes a key: it then gets 401 `invalid_api_key`. */
  revokeKey(id: string): Promise<void>;
  /** `{ url, events, active?, secret? }`; the answer is the only place the secret is shown. */
  createEndpoint(applicationId: string, input: unknown): Promise<EndpointView & { secret: string }>;
  listEndpoints(applicationId?: string): EndpointView[];
  /** `{ active?, events? }`. */
  updateEndpoint(id: string, input: unknown): Promise<EndpointView>;
  deleteEndpoint(id: string): Promise<void>;
  rotateSecret(id: string): Promise<{ secret: string; previous_expires_at: string }>;
  testEndpoint(id: string): Promise<{ event_id: string }>;
  /** Webhook chaos of an endpoint (`PUT /_emulator/endpoints/{id}/chaos`), replacing what it had. */
  setChaos(endpointId: string, input: unknown): Promise<ChaosView>;
  getChaos(endpointId: string): ChaosView;
  /** Chaos off; deliveries already planned keep theirs. */
  clearChaos(endpointId: string): Promise<void>;
  listDeliveries(filter?: { endpointId?: string; applicationId?: string }): DeliveryView[];
  replayDelivery(id: string): Promise<DeliveryView>;
  usage(applicationId?: string): ReturnType<typeof usage>;
  /** `{ phone_number, name? }`: a simulated number of a live application. */
  createConnection(applicationId: string, input: unknown): Promise<Connection>;
  disconnectConnection(id: string): Promise<Connection>;
  /** `{ from, text }`: opens that sender's 24 h window. */
  receiveInbound(connectionId: string, input: unknown): Promise<Message>;
  /** Every message newest first, optionally of one application. */
  listMessages(applicationId?: string): Message[];
  /** One page of {@link listMessages} (`GET /_emulator/messages`): `limit` 1–100 (default 20), `cursor`. */
  listMessagePage(query?: PageQuery & { applicationId?: string | undefined }): ListEnvelope<Message>;
  /** The application's connections (sandbox fixtures or simulated live numbers), each with its templates. */
  listApplicationConnections(applicationId: string): ConnectionWithTemplates[];
  /** Sends the body of `POST /v1/messages` as the application, without a key (the console's Send). */
  sendMessage(applicationId: string, input: unknown): Promise<Message>;
  listEvents(applicationId?: string): WebhookEvent[];
  /**
   * Injects a fault, `{ method?, path?, key_id?, key_prefix?, times?, fault }`: the next `times`
   * /v1 requests matching `method`, `path` (`*` = one segment) and `key_id` or `key_prefix` get
   * `fault` (a `FaultAnswer`) instead of the API's answer (see `docs/emulator.md#faults`).
   */
  createFault(input: unknown): Promise<FaultView>;
  /** Sandbox recipients with a fixed, documented outcome (`GET /_emulator/magic-numbers`). */
  listMagicNumbers(): MagicRecipient[];
  /** Every fault, in matching order, used-up ones included (`remaining: 0`). */
  listFaults(): FaultView[];
  deleteFault(id: string): Promise<void>;
  clearFaults(): Promise<void>;
}

/** Builds the control functions over a runtime. */
export function createControl(runtime: ControlRuntime): EmulatorControl {
  const { core } = runtime;
  // Every change waits for the seed/loaded state, then is made durable before it is answered.
  const mutate = async <Value>(change: () => Value | Promise<Value>): Promise<Value> => {
    await runtime.ready();
    const value = await change();
    await runtime.commit();
    return value;
  };
  return {
    health: () => {
      const health = { ok: true as const, version: runtime.version, counts: stateCounts(core) };
      // The emulator still serves (ok stays true); the data dir's state is said next to it.
      return core.durable ? { ...health, persistence: core.persistenceHealth() } : health;
    },
    reset: () =>
      mutate(async () => {
        await runtime.reset();
        return { ok: true as const };
      }),
    getClock: () => globalClock(core),
    advanceClock: (ms) => mutate(() => advanceGlobalClock(core, ms)),
    createWorkspace: (input) => mutate(() => workspaces.createWorkspace(core, input)),
    listWorkspaces: () => Object.values(core.state.workspaces).map(workspaces.workspaceView),
    getWorkspaceClock: (id) => workspaces.workspaceClock(core, id),
    advanceWorkspaceClock: (id, ms) => mutate(() => workspaces.advanceWorkspaceClock(core, id, ms)),
    resetWorkspace: (id) => mutate(() => workspaces.resetWorkspace(core, id)),
    createApplication: (input) => mutate(() => createApplication(core, input)),
    listApplications: () => Object.values(core.state.applications).map((app) => ({ ...app })),
    createKey: (applicationId, input) => mutate(() => createKey(core, applicationId, input)),
    revokeKey: (id) => mutate(() => revokeKey(core, id)),
    createEndpoint: (applicationId, input) =>
      mutate(() => endpoints.createEndpoint(core, applicationId, input)),
    listEndpoints: (applicationId) => core.webhooks.listEndpoints(applicationId),
    updateEndpoint: (id, input) => mutate(() => core.webhooks.updateEndpoint(id, input)),
    deleteEndpoint: (id) => mutate(() => core.webhooks.deleteEndpoint(id)),
    rotateSecret: (id) => mutate(() => core.webhooks.rotateSecret(id)),
    setChaos: (id, input) => mutate(() => core.webhooks.setChaos(id, input)),
    getChaos: (id) => core.webhooks.getChaos(id),
    clearChaos: (id) => mutate(() => core.webhooks.clearChaos(id)),
    testEndpoint: (id) => mutate(() => endpoints.testEndpoint(core, id)),
    listDeliveries: (filter = {}) => core.webhooks.listDeliveries(filter),
    replayDelivery: (id) => mutate(() => endpoints.replayDelivery(core, id)),
    usage: (applicationId) => usage(core, applicationId),
    createConnection: (applicationId, input) =>
      mutate(() => live.createConnection(core, applicationId, input)),
    disconnectConnection: (id) => mutate(() => live.disconnectConnection(core, id)),
    receiveInbound: (connectionId, input) => mutate(() => live.receiveInbound(core, connectionId, input)),
    listMessages: (applicationId) => listMessages(core, applicationId),
    listMessagePage: ({ applicationId, ...page } = {}) => messagePage(core, applicationId, page),
    listApplicationConnections: (applicationId) => applicationConnections(core, applicationId),
    sendMessage: (applicationId, input) => mutate(() => sendAsApplication(core, applicationId, input)),
    listEvents: (applicationId) => listEvents(core, applicationId),
    createFault: (input) => mutate(() => createFault(core, input)),
    listMagicNumbers: () => MAGIC_RECIPIENTS.map((recipient) => ({ ...recipient })),
    listFaults: () => core.faults.list(),
    deleteFault: (id) => mutate(() => core.faults.delete(id)),
    clearFaults: () => mutate(() => core.faults.clear()),
  };
}
