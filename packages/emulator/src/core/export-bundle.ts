import { DomainError } from '../domain/domain-error';
import { stepsOf } from '../domain/message-lifecycle';
import type { MessageRecord } from '../domain/records';
import type { EndpointRecord } from '../store/webhook-state';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleClock,
  type BundleEndpoint,
  type BundlePendingJob,
  type BundleWorkspace,
  type ExportOptions,
  type StateBundle,
} from './bundle-types';
import type { EmulatorCore } from './emulator-core';

const iso = (ms: number) => new Date(ms).toISOString();

/** Which records belong to the export: everything, or one workspace's (as its reset defines it). */
interface Scope {
  workspace(id: string): boolean;
  application(id: string): boolean;
  key(id: string): boolean;
  connection(id: string): boolean;
}

function scopeOf(core: EmulatorCore, workspaceId: string | undefined): Scope {
  if (workspaceId === undefined)
    return { workspace: () => true, application: () => true, key: () => true, connection: () => true };
  const { state } = core;
  const applications = new Set<string>();
  for (const app of Object.values(state.applications))
    if (app.workspace_id === workspaceId) applications.add(app.id);
  const keys = new Set<string>();
  for (const key of Object.values(state.keys)) if (applications.has(key.application_id)) keys.add(key.id);
  const connections = new Set<string>();
  for (const found of Object.values(state.connections))
    if (applications.has(found.application_id)) connections.add(found.id);
  return {
    workspace: (id) => id === workspaceId,
    application: (id) => applications.has(id),
    key: (id) => keys.has(id),
    connection: (id) => connections.has(id),
  };
}

/** A workspace id from outside (a query, an option): an existing workspace, else 404. */
function checkedWorkspace(core: EmulatorCore, workspaceId: unknown): string | undefined {
  if (workspaceId === undefined) return undefined;
  if (typeof workspaceId !== 'string' || core.state.workspaces[workspaceId] === undefined) {
    throw new DomainError('not_found', `No workspace ${String(workspaceId)}.`, {
      workspace_id: String(workspaceId),
    });
  }
  return workspaceId;
}

/** Where a composite slot (`${id}\n${rest}`) splits. */
function splitSlot(slot: string): [string, string] {
  const at = slot.indexOf('\n');
  return [slot.slice(0, at), slot.slice(at + 1)];
}

function endpointOf(record: EndpointRecord, includeSecrets: boolean): BundleEndpoint {
  return includeSecrets ? { ...record } : { ...record, secret: null, previous_secret: null };
}

function pendingJobs(
  messages: readonly MessageRecord[],
  deliveries: StateBundle['deliveries'],
): BundlePendingJob[] {
  const jobs: BundlePendingJob[] = [];
  for (const record of messages) {
    const step = stepsOf(record)[record.announced];
    if (step)
      jobs.push({ kind: 'message_status', id: record.message.id, at: iso(record.accepted_at + step.age) });
  }
  for (const delivery of deliveries) {
    if (delivery.status === 'pending' && delivery.next_attempt_at !== null) {
      jobs.push({ kind: 'delivery_attempt', id: delivery.id, at: delivery.next_attempt_at });
    }
  }
  return jobs.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * The state (or one workspace's), its clocks and its activity history as one bundle. Records are
 * copied as the data dir stores them (keys as hashes); signing secrets only with `includeSecrets`.
 * Built in one synchronous step, so no change lands half in it.
 */
export function exportBundle(core: EmulatorCore, version: string, options: ExportOptions = {}): StateBundle {
  const workspaceId = checkedWorkspace(core, options.workspaceId);
  const includeSecrets = options.includeSecrets === true;
  const scope = scopeOf(core, workspaceId);
  const { state } = core;
  const clockOf = (id: string): BundleClock | undefined =>
    core.clocks.owns(id) ? { mode: core.clocks.of(id).clock.mode, now: iso(core.nowIn(id)) } : undefined;
  const workspaces: BundleWorkspace[] = Object.values(state.workspaces)
    .filter((workspace) => scope.workspace(workspace.id))
    .map(({ clock: _saved, ...workspace }) => {
      const own = clockOf(workspace.id);
      return own ? { ...workspace, clock: own } : { ...workspace };
    });
  const messages = core.messageOrder.flatMap((id) => {
    const record = state.messages[id];
    return record && (workspaceId === undefined || record.workspace_id === workspaceId)
      ? [structuredClone(record)]
      : [];
  });
  const deliveries = Object.values(state.webhooks.deliveries)
    .filter((record) => scope.application(record.application_id))
    .map((record) => structuredClone(record));
  const activity = core.activity
    .newestFirst()
    .reverse()
    .map((entry) => entry.item)
    .filter(
      (item) =>
        workspaceId === undefined ||
        ('workspace_id' in item && item.workspace_id === workspaceId) ||
        item.application_ids.some((id) => scope.application(id)),
    );
  const global = workspaceId === undefined ? undefined : clockOf(workspaceId);
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    emulator_version: version,
    exported_at: iso(core.now()),
    workspace_id: workspaceId ?? null,
    secrets_included: includeSecrets,
    // One workspace's bundle carries that workspace's time as the global clock's.
    clock: global ?? { mode: core.timeline.clock.mode, now: iso(core.now()) },
    workspaces,
    applications: Object.values(state.applications)
      .filter((app) => scope.application(app.id))
      .map((app) => ({ ...app })),
    keys: Object.values(state.keys)
      .filter((key) => scope.key(key.id))
      .map((key) => ({ ...key, scopes: [...key.scopes] })),
    connections: Object.values(state.connections)
      .filter((found) => scope.connection(found.id))
      .map((found) => structuredClone(found)),
    endpoints: Object.values(state.webhooks.endpoints)
      .filter((endpoint) => scope.application(endpoint.application_id))
      .map((endpoint) => structuredClone(endpointOf(endpoint, includeSecrets))),
    messages,
    events: state.events
      .filter(
        (record) => workspaceId === undefined || record.application_ids.some((id) => scope.application(id)),
      )
      .map((record) => structuredClone(record)),
    deliveries,
    pending_jobs: pendingJobs(messages, deliveries),
    idempotency: Object.entries(state.idempotency).flatMap(([slot, record]) => {
      const [keyId, idempotencyKey] = splitSlot(slot);
      return scope.key(keyId) ? [{ key_id: keyId, idempotency_key: idempotencyKey, record }] : [];
    }),
    messaging_windows: Object.entries(state.windows).flatMap(([slot, openedAt]) => {
      const [connectionId, sender] = splitSlot(slot);
      return scope.connection(connectionId)
        ? [{ connection_id: connectionId, sender, opened_at: openedAt }]
        : [];
    }),
    daily_sends: Object.entries(state.daily_sends).flatMap(([id, sends]) =>
      scope.workspace(id) ? [{ workspace_id: id, day: sends.day, count: sends.count }] : [],
    ),
    rate_limits: Object.entries(state.rate_limits).flatMap(([keyId, window]) =>
      scope.key(keyId) ? [{ key_id: keyId, start: window.start, used: { ...window.used } }] : [],
    ),
    activity: { last_seq: core.activity.lastSeq, items: activity },
  };
}
