import type { ClockMode } from '../clock/clock-types';
import { checkAdvance, checkClockStart } from '../domain/clock-range';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid, newId } from '../domain/ids';
import { invalid } from '../domain/input-checks';
import type { WorkspaceRecord } from '../domain/records';
import { advanceTimeline } from './clock';
import type { EmulatorCore } from './emulator-core';
import { savedClock } from './workspace-clocks';

/** A workspace as the control API shows it: `clock` is `global` unless it has one of its own. */
export interface WorkspaceView {
  id: string;
  name: string;
  created_at: string;
  clock: 'global' | ClockMode;
}

/** A workspace's clock (`GET /_emulator/workspaces/{id}/clock`). */
export interface WorkspaceClockView {
  workspace_id: string;
  now: string;
  mode: ClockMode;
  /** False when the workspace runs on the global clock (the global advance moves it). */
  own_clock: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The control view of a workspace. */
export function workspaceView({ id, name, created_at, clock }: WorkspaceRecord): WorkspaceView {
  return { id, name, created_at, clock: clock?.mode ?? 'global' };
}

/** 404 unless the workspace exists. */
export function findWorkspace(core: EmulatorCore, id: string): WorkspaceRecord {
  const workspace = isUuid(id) ? core.state.workspaces[id] : undefined;
  if (!workspace) throw new DomainError('not_found', `No workspace ${id}.`, { workspace_id: id });
  return workspace;
}

/**
 * `POST /_emulator/workspaces {"name", "clock"?, "now"?}`. With `clock` (`frozen` or `real`) the
 * workspace gets a clock of its own, from `now` (ISO, default the global time): its keys, messages,
 * windows and deliveries then follow it alone. Without, it shares the global clock.
 */
export function createWorkspace(core: EmulatorCore, input: unknown): WorkspaceView {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    invalid('body', 'invalid_type', 'The body must be a JSON object.');
  }
  const { name, clock, now } = input as Record<string, unknown>;
  if (name === undefined) invalid('name', 'required', 'name is required.');
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
    invalid('name', 'invalid_type', 'name must be a string of 1 to 200 characters.');
  }
  if (clock !== undefined && clock !== 'frozen' && clock !== 'real') {
    invalid(
      'clock',
      'invalid_value',
      'clock must be "frozen" or "real" (omit it to share the global clock).',
    );
  }
  let start = core.now();
  if (now !== undefined) {
    if (clock === undefined) invalid('now', 'not_allowed', 'now needs a clock of its own: give "clock" too.');
    start = checkClockStart('now', now);
  }
  const id = newId();
  const record: WorkspaceRecord = {
    id,
    name,
    created_at: formatTimestamp(start),
    agreement_accepted_at: null,
  };
  if (clock !== undefined) record.clock = savedClock(core.clocks.create(id, clock, start));
  core.state.workspaces[id] = record;
  core.changed();
  return workspaceView(record);
}

/** `GET /_emulator/workspaces/{id}/clock`: its own clock, or the global one it shares. */
export function workspaceClock(core: EmulatorCore, id: string): WorkspaceClockView {
  findWorkspace(core, id);
  const { clock } = core.clocks.of(id);
  return { workspace_id: id, now: iso(clock.now()), mode: clock.mode, own_clock: core.clocks.owns(id) };
}

/**
 * `POST /_emulator/workspaces/{id}/clock/advance {"ms"}`: runs every job of that workspace that
 * falls due, in time order. A workspace on the global clock is refused (409
 * `workspace_clock_shared`): moving the global clock moves every workspace that shares it.
 */
export async function advanceWorkspaceClock(
  core: EmulatorCore,
  id: string,
  ms: unknown,
): Promise<{ workspace_id: string; now: string }> {
  const workspace = findWorkspace(core, id);
  const timeline = core.clocks.of(id);
  checkAdvance(timeline.clock.now(), ms);
  if (!core.clocks.owns(id)) {
    throw new DomainError(
      'workspace_clock_shared',
      `Workspace ${id} runs on the global clock: move it with POST /_emulator/clock/advance, or create a workspace with "clock": "frozen" to move its time alone.`,
      { workspace_id: id },
    );
  }
  await advanceTimeline(timeline, ms);
  workspace.clock = savedClock(timeline);
  core.changed();
  const now = iso(timeline.clock.now());
  core.activity.publish({
    kind: 'clock',
    application_ids: applicationsOf(core, id),
    now,
    mode: timeline.clock.mode,
    workspace_id: id,
  });
  return { workspace_id: id, now };
}

/**
 * `POST /_emulator/workspaces/{id}/reset`: that workspace's traffic goes (messages, their
 * idempotency records, deliveries with their retries, events, rate-limit windows, daily count,
 * messaging windows, its keys' faults); its set-up stays (applications, keys, endpoints,
 * connections), and so does its clock's time. Other workspaces are untouched.
 */
export function resetWorkspace(core: EmulatorCore, id: string): { ok: true; workspace_id: string } {
  findWorkspace(core, id);
  const state = core.state;
  const applications = new Set(applicationsOf(core, id));
  const keys = new Set(
    Object.values(state.keys).flatMap((key) => (applications.has(key.application_id) ? [key.id] : [])),
  );
  const connections = new Set(
    Object.values(state.connections).flatMap((connection) =>
      applications.has(connection.application_id) ? [connection.id] : [],
    ),
  );
  if (core.clocks.owns(id)) {
    // Every job on its own timeline is its own: cancel them all rather than let them find nothing.
    const timeline = core.clocks.of(id);
    timeline.clearJobs();
    core.dropTimers(timeline);
  }
  core.webhooks.forgetDeliveries(applications);
  for (const [messageId, record] of Object.entries(state.messages)) {
    if (record.workspace_id === id) delete state.messages[messageId];
  }
  core.forgetRemovedMessages();
  for (const slot of Object.keys(state.idempotency)) {
    if (keys.has(slot.slice(0, slot.indexOf('\n')))) delete state.idempotency[slot];
  }
  for (const slot of Object.keys(state.windows)) {
    if (connections.has(slot.slice(0, slot.indexOf('\n')))) delete state.windows[slot];
  }
  for (const keyId of keys) core.rateLimits.forget(keyId);
  delete state.daily_sends[id];
  state.events = state.events.filter(
    (record) => !record.application_ids.some((applicationId) => applications.has(applicationId)),
  );
  core.faults.clear((fault) => fault.workspace_id === id);
  core.changed();
  core.activity.publish({ kind: 'reset', application_ids: [...applications], workspace_id: id });
  return { ok: true, workspace_id: id };
}

function applicationsOf(core: EmulatorCore, workspaceId: string): string[] {
  return Object.values(core.state.applications).flatMap((app) =>
    app.workspace_id === workspaceId ? [app.id] : [],
  );
}
