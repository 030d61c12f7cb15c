import type { ListEnvelope } from '@parley/sdk';
import { parseIdleTimeout } from '../domain/idle-timeout';
import { listPage, type PageQuery } from '../domain/list-page';
import { MAGIC_RECIPIENTS } from '../domain/magic-recipients';
import { sendAsApplication } from './accept-send';
import { activityPage } from './activity-page';
import { createApplication } from './applications';
import { advanceGlobalClock, globalClock } from './clock';
import { applicationConnections } from './connections';
import type { EmulatorControl, IdleView } from './control-types';
import * as conversations from './conversations';
import type { EmulatorCore } from './emulator-core';
import * as endpoints from './endpoints';
import { listEvents } from './events';
import { exportBundle } from './export-bundle';
import { createFault } from './fault-table';
import { buildHar } from './har';
import { applyBundle, parseBundle } from './import-bundle';
import { createKey, revokeKey } from './keys';
import * as live from './live-connections';
import { messagePage } from './messages';
import { stateCounts } from './state-counts';
import { usage } from './usage';
import * as workspaces from './workspaces';

export type { ChaosView, EmulatorControl } from './control-types';

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
  // Reads wait for the seed/loaded state too, as a request does.
  const read = async <Value>(answer: () => Value): Promise<Value> => {
    await runtime.ready();
    return answer();
  };
  let importing: Promise<unknown> = Promise.resolve();
  const page = <Item>(items: () => readonly Item[], query: PageQuery = {}): Promise<ListEnvelope<Item>> =>
    read(() => listPage(items(), query));
  return {
    health: () =>
      read(() => {
        const health = { ok: true as const, version: runtime.version, counts: stateCounts(core) };
        // The emulator still serves (ok stays true); the data dir's state is said next to it.
        return core.durable ? { ...health, persistence: core.persistenceHealth() } : health;
      }),
    reset: () =>
      mutate(async () => {
        await runtime.reset();
        return { ok: true as const };
      }),
    getClock: () => read(() => globalClock(core)),
    advanceClock: (ms) => mutate(() => advanceGlobalClock(core, ms)),
    idle: async (options = {}) => idle(runtime, parseIdleTimeout(options.timeoutMs)),
    createWorkspace: (input) => mutate(() => workspaces.createWorkspace(core, input)),
    listWorkspaces: (query) =>
      page(() => Object.values(core.state.workspaces).map(workspaces.workspaceView), query),
    getWorkspaceClock: (id) => read(() => workspaces.workspaceClock(core, id)),
    advanceWorkspaceClock: (id, ms) => mutate(() => workspaces.advanceWorkspaceClock(core, id, ms)),
    resetWorkspace: (id) => mutate(() => workspaces.resetWorkspace(core, id)),
    createApplication: (input) => mutate(() => createApplication(core, input)),
    listApplications: ({ workspaceId, ...query } = {}) =>
      page(
        () =>
          Object.values(core.state.applications)
            .filter((app) => workspaceId === undefined || app.workspace_id === workspaceId)
            .map((app) => ({ ...app })),
        query,
      ),
    createKey: (applicationId, input) => mutate(() => createKey(core, applicationId, input)),
    revokeKey: (id) => mutate(() => revokeKey(core, id)),
    createEndpoint: (applicationId, input) =>
      mutate(() => endpoints.createEndpoint(core, applicationId, input)),
    listEndpoints: ({ applicationId, ...query } = {}) =>
      page(() => core.webhooks.listEndpoints(applicationId), query),
    updateEndpoint: (id, input) => mutate(() => core.webhooks.updateEndpoint(id, input)),
    deleteEndpoint: (id) => mutate(() => core.webhooks.deleteEndpoint(id)),
    rotateSecret: (id) => mutate(() => core.webhooks.rotateSecret(id)),
    setChaos: (id, input) => mutate(() => core.webhooks.setChaos(id, input)),
    getChaos: (id) => read(() => core.webhooks.getChaos(id)),
    clearChaos: (id) => mutate(() => core.webhooks.clearChaos(id)),
    testEndpoint: (id) => mutate(() => endpoints.testEndpoint(core, id)),
    listDeliveries: ({ endpointId, applicationId, ...query } = {}) =>
      page(
        () =>
          core.webhooks.listDeliveries({
            ...(endpointId === undefined ? {} : { endpointId }),
            ...(applicationId === undefined ? {} : { applicationId }),
          }),
        query,
      ),
    replayDelivery: (id) => mutate(() => endpoints.replayDelivery(core, id)),
    usage: (applicationId) => read(() => usage(core, applicationId)),
    createConnection: (applicationId, input) =>
      mutate(() => live.createConnection(core, applicationId, input)),
    disconnectConnection: (id) => mutate(() => live.disconnectConnection(core, id)),
    receiveInbound: (connectionId, input) => mutate(() => live.receiveInbound(core, connectionId, input)),
    listMessages: ({ applicationId, ...query } = {}) => read(() => messagePage(core, applicationId, query)),
    listApplicationConnections: (applicationId, query) =>
      page(() => applicationConnections(core, applicationId), query),
    sendMessage: (applicationId, input) => mutate(() => sendAsApplication(core, applicationId, input)),
    listConversations: (applicationId, query = {}) =>
      read(() => conversations.listConversations(core, applicationId, query)),
    getConversation: (applicationId, query) =>
      read(() => conversations.getConversation(core, applicationId, query)),
    messageAsCustomer: (applicationId, input) =>
      mutate(() => conversations.messageAsCustomer(core, applicationId, input)),
    listEvents: ({ applicationId, ...query } = {}) => page(() => listEvents(core, applicationId), query),
    listActivity: (query) => read(() => activityPage(core.activity, query)),
    createFault: (input) => mutate(() => createFault(core, input)),
    listFaults: (query) => page(() => core.faults.list(), query),
    deleteFault: (id) => mutate(() => core.faults.delete(id)),
    clearFaults: () => mutate(() => core.faults.clear()),
    listMagicNumbers: (query) => page(() => MAGIC_RECIPIENTS.map((recipient) => ({ ...recipient })), query),
    export: (options) => read(() => exportBundle(core, runtime.version, options)),
    // Checked whole before anything changes; imports never overlap. The bundle is copied: the
    // caller's object must not become the live state.
    import: (bundle) => {
      const run = importing.then(async () => {
        await runtime.ready();
        return applyBundle(core, parseBundle(structuredClone(bundle), runtime.version), runtime.commit);
      });
      importing = run.catch(() => undefined);
      return run;
    },
    har: (options) => read(() => buildHar(core, runtime.version, options)),
  };
}

/**
 * Waits, at most `timeoutMs` real milliseconds, until every clock has run the jobs due at its
 * current time and no delivery attempt is in flight (attempts released meanwhile are awaited too).
 */
async function idle(runtime: ControlRuntime, timeoutMs: number): Promise<IdleView> {
  await runtime.ready();
  const { core } = runtime;
  const settled = (async () => {
    await Promise.all(core.clocks.all().map((timeline) => timeline.clock.advance(0)));
    await core.webhooks.idle();
    return { idle: true } as const;
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<IdleView>((resolve) => {
    timer = setTimeout(() => resolve({ idle: false, in_flight: deliveriesDue(core) }), timeoutMs);
  });
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Pending deliveries whose attempt is due at their clock's time: in flight, or about to leave. */
function deliveriesDue(core: EmulatorCore): number {
  let due = 0;
  for (const delivery of Object.values(core.state.webhooks.deliveries)) {
    if (delivery.status !== 'pending' || delivery.next_attempt_at === null) continue;
    if (Date.parse(delivery.next_attempt_at) <= core.nowFor(delivery.application_id)) due++;
  }
  return due;
}
