import type { ClockMode } from '../clock/clock-types';
import { createDictionary } from '../domain/dictionary';
import { DomainError } from '../domain/domain-error';
import { generateSigningSecret } from '../domain/signing-secret';
import { BUNDLE } from '../store/_bundle-shape';
import { describeProblem } from '../store/_shape';
import { createEmptyState, type EmulatorState, MAX_RECENT_EVENTS } from '../store/state';
import type { EndpointRecord } from '../store/webhook-state';
import { exchangesOf } from './_exchange-ring';
import type { ActivityItem } from './activity-feed';
import { BUNDLE_FORMAT, BUNDLE_VERSION, type ImportView, type StateBundle } from './bundle-types';
import type { EmulatorCore } from './emulator-core';

export { MAX_BUNDLE_BYTES } from './bundle-types';

/** A bundle checked whole and turned into what the emulator runs on; nothing is applied yet. */
export interface ParsedBundle {
  state: EmulatorState;
  /** The global clock: the mode it ran in and the time (ms) it showed. */
  clock: { mode: ClockMode; now: number };
  activity: { last_seq: number; items: ActivityItem[] };
  /** Endpoints that had no secret in the bundle and got a new one. */
  newSecrets: number;
  pendingJobs: number;
}

/** A refused bundle: 400 `validation_error` whose `details.field` is the path in the file. */
function refused(field: string, reason: string, message: string): DomainError {
  return new DomainError('validation_error', message, { field, reason });
}

/**
 * Checks a bundle (parsed JSON) from top to bottom and builds its state, or throws a
 * {@link DomainError} `validation_error` naming the first wrong place (`messages[3].message.status`).
 * Pure: nothing in the running emulator changes, so a bundle wrong in its last record leaves the
 * state as it was.
 */
export function parseBundle(value: unknown, version: string): ParsedBundle {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refused(
      'bundle',
      'not_an_object',
      'A bundle is a JSON object (the answer of GET /_emulator/export).',
    );
  }
  const top = value as Record<string, unknown>;
  if (top.format === 'parley-emulator-state') {
    throw refused(
      'format',
      'unknown_format',
      'This is a data dir snapshot (state.json), not an export bundle: start the emulator with --data-dir on its directory instead.',
    );
  }
  if (top.format !== BUNDLE_FORMAT) {
    throw refused(
      'format',
      'unknown_format',
      `Not an emulator export bundle: "format" must be "${BUNDLE_FORMAT}".`,
    );
  }
  if (top.version !== BUNDLE_VERSION) {
    const shown = typeof top.version === 'number' ? String(top.version) : 'missing';
    throw refused(
      'version',
      'unsupported_version',
      `This bundle is of version ${shown}; this emulator (${version}) reads version ${BUNDLE_VERSION} bundles only. Export it again with an emulator that writes version ${BUNDLE_VERSION}.`,
    );
  }
  const problem = BUNDLE(value);
  if (problem !== undefined) {
    const described = describeProblem(problem);
    const colon = described.indexOf(': ');
    const field = colon === -1 ? 'bundle' : described.slice(0, colon);
    throw refused(
      field,
      colon === -1 ? described : described.slice(colon + 2),
      `The bundle is invalid at ${described}.`,
    );
  }
  const bundle = value as StateBundle;
  checkReferences(bundle);
  return build(bundle);
}

/**
 * Ids are unique per collection and records find what they belong to. Records of a revoked key or
 * a deleted endpoint (idempotency, rate windows, deliveries) are kept as the state keeps them.
 */
function checkReferences(bundle: StateBundle): void {
  const ids = (name: string, list: readonly unknown[], idOf: (item: never) => string): Set<string> => {
    const seen = new Map<string, number>();
    for (const [index, item] of list.entries()) {
      const id = idOf(item as never);
      const first = seen.get(id);
      if (first !== undefined) {
        throw refused(
          `${name}[${index}]`,
          'duplicate_id',
          `The bundle is invalid at ${name}[${index}]: the same id as ${name}[${first}].`,
        );
      }
      seen.set(id, index);
    }
    return new Set(seen.keys());
  };
  const refer = (
    name: string,
    list: readonly unknown[],
    field: string,
    targets: Set<string>,
    what: string,
  ) => {
    for (const [index, item] of list.entries()) {
      const id = (item as Record<string, unknown>)[field] as string;
      if (!targets.has(id)) {
        const place = `${name}[${index}].${field}`;
        throw refused(
          place,
          'unknown_reference',
          `The bundle is invalid at ${place}: no ${what} with this id in the bundle.`,
        );
      }
    }
  };
  const workspaces = ids('workspaces', bundle.workspaces, (item: { id: string }) => item.id);
  const applications = ids('applications', bundle.applications, (item: { id: string }) => item.id);
  ids('keys', bundle.keys, (item: { id: string }) => item.id);
  ids('endpoints', bundle.endpoints, (item: { id: string }) => item.id);
  ids('connections', bundle.connections, (item: { id: string }) => item.id);
  ids('messages', bundle.messages, (item: { message: { id: string } }) => item.message.id);
  ids('deliveries', bundle.deliveries, (item: { id: string }) => item.id);
  refer('applications', bundle.applications, 'workspace_id', workspaces, 'workspace');
  refer('keys', bundle.keys, 'application_id', applications, 'application');
  refer('connections', bundle.connections, 'application_id', applications, 'application');
  refer('endpoints', bundle.endpoints, 'application_id', applications, 'application');
  refer('messages', bundle.messages, 'application_id', applications, 'application');
  refer('messages', bundle.messages, 'workspace_id', workspaces, 'workspace');
  refer('deliveries', bundle.deliveries, 'application_id', applications, 'application');
  refer('daily_sends', bundle.daily_sends, 'workspace_id', workspaces, 'workspace');
  let previous = 0;
  for (const [index, item] of bundle.activity.items.entries()) {
    if (item.seq <= previous || item.seq > bundle.activity.last_seq) {
      const place = `activity.items[${index}].seq`;
      throw refused(
        place,
        'out_of_order',
        `The bundle is invalid at ${place}: items are numbered upwards, up to activity.last_seq.`,
      );
    }
    previous = item.seq;
  }
}

function build(bundle: StateBundle): ParsedBundle {
  const state = createEmptyState();
  const wallNow = Date.now();
  for (const { clock, ...workspace } of bundle.workspaces) {
    const now = clock && Date.parse(clock.now);
    state.workspaces[workspace.id] = clock
      ? { ...workspace, clock: { mode: clock.mode, offset_ms: now! - wallNow, frozen_at: now! } }
      : { ...workspace };
  }
  for (const app of bundle.applications) state.applications[app.id] = app;
  for (const key of bundle.keys) state.keys[key.id] = key;
  for (const found of bundle.connections) state.connections[found.id] = found;
  let newSecrets = 0;
  for (const endpoint of bundle.endpoints) {
    if (endpoint.secret === null) newSecrets++;
    const record: EndpointRecord = {
      ...endpoint,
      secret: endpoint.secret ?? generateSigningSecret(),
      previous_secret: endpoint.secret === null ? null : endpoint.previous_secret,
    };
    state.webhooks.endpoints[endpoint.id] = record;
  }
  for (const record of bundle.messages) state.messages[record.message.id] = record;
  state.events = bundle.events.slice(-MAX_RECENT_EVENTS);
  for (const delivery of bundle.deliveries) state.webhooks.deliveries[delivery.id] = delivery;
  const slots = <Value>(target: Record<string, Value>, entries: Iterable<[string, Value]>) => {
    for (const [slot, entry] of entries) target[slot] = entry;
  };
  slots(
    state.idempotency,
    bundle.idempotency.map((entry): [string, string] => [
      `${entry.key_id}\n${entry.idempotency_key}`,
      entry.record,
    ]),
  );
  slots(
    state.windows,
    bundle.messaging_windows.map((entry): [string, number] => [
      `${entry.connection_id}\n${entry.sender}`,
      entry.opened_at,
    ]),
  );
  slots(
    state.daily_sends,
    bundle.daily_sends.map(({ workspace_id, ...sends }): [string, typeof sends] => [workspace_id, sends]),
  );
  slots(
    state.rate_limits,
    bundle.rate_limits.map(({ key_id, ...window }): [string, typeof window] => [key_id, window]),
  );
  return {
    state,
    clock: { mode: bundle.clock.mode, now: Date.parse(bundle.clock.now) },
    activity: bundle.activity,
    newSecrets,
    pendingJobs: bundle.pending_jobs.length,
  };
}

/**
 * Makes a checked bundle the emulator's state: its records, its clocks (the global one jumps to the
 * bundle's time in the mode the emulator runs; own clocks come back in their own mode), its
 * activity history; every job its records imply (status steps, delivery attempts) is scheduled at
 * the same emulator time. `commit` then makes it durable (a data dir's snapshot); when that fails
 * the previous state comes back and the error is thrown, so an import is whole or absent.
 */
export async function applyBundle(
  core: EmulatorCore,
  parsed: ParsedBundle,
  commit: () => Promise<void>,
): Promise<ImportView> {
  const previous = {
    state: core.state,
    now: core.now(),
    activity: core.activity
      .newestFirst()
      .reverse()
      .map((entry) => entry.item),
    lastSeq: core.activity.lastSeq,
  };
  await swapIn(core, parsed.state, parsed.clock.now, parsed.activity);
  try {
    await commit();
  } catch (error) {
    await swapIn(core, previous.state, previous.now, {
      last_seq: previous.lastSeq,
      items: previous.activity,
    });
    throw error;
  }
  // The traffic of the state that was is not this one's (kept until the import is sure to stand).
  exchangesOf(core).clear();
  return {
    ok: true,
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    clock: { now: new Date(core.now()).toISOString(), mode: core.timeline.clock.mode },
    counts: {
      workspaces: Object.keys(parsed.state.workspaces).length,
      applications: Object.keys(parsed.state.applications).length,
      messages: Object.keys(parsed.state.messages).length,
      deliveries: Object.keys(parsed.state.webhooks.deliveries).length,
      pending_jobs: parsed.pendingJobs,
    },
    new_secrets: parsed.newSecrets,
  };
}

async function swapIn(
  core: EmulatorCore,
  state: EmulatorState,
  now: number,
  activity: { last_seq: number; items: readonly ActivityItem[] },
): Promise<void> {
  // Nothing of the old state may run once the time has jumped: its jobs go first, and its own
  // clocks, so the records' clocks start where the bundle says.
  core.clocks.clearJobs();
  core.clocks.rebuild(createDictionary());
  core.timeline.jumpTo(now);
  await core.replaceState(state);
  core.activity.restore(activity.items, activity.last_seq);
  core.changed();
}
