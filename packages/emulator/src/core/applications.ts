import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid, newId } from '../domain/ids';
import { controlBody, invalid } from '../domain/input-checks';
import type { ApplicationRecord } from '../domain/records';
import { DEFAULT_WORKSPACE_ID } from './defaults';
import type { EmulatorCore, StateParts } from './emulator-core';

function nameOf(body: Record<string, unknown>): string {
  const name = body.name;
  if (name === undefined) invalid('name', 'required', 'name is required.');
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
    invalid('name', 'invalid_type', 'name must be a string of 1 to 200 characters.');
  }
  return name;
}

/** Whether an application with this id exists (`id` is outside input: any string). */
export function hasApplication(core: StateParts<'applications'>, id: string): boolean {
  return isUuid(id) && core.state.applications[id] !== undefined;
}

/** 404 unless the application exists. */
export function findApplication(core: StateParts<'applications'>, id: string): ApplicationRecord {
  const app = isUuid(id) ? core.state.applications[id] : undefined;
  if (!app) throw new DomainError('not_found', `No application ${id}.`, { application_id: id });
  return app;
}

/** `POST /_emulator/applications`: emits `developer.application.created` (a live, workspace-wide event). */
export function createApplication(core: EmulatorCore, input: unknown): ApplicationRecord {
  const body = controlBody(input);
  const name = nameOf(body);
  const environment = body.environment;
  if (environment !== 'live' && environment !== 'sandbox') {
    invalid('environment', 'invalid_value', 'environment must be "live" or "sandbox".');
  }
  const workspaceId = body.workspace_id ?? DEFAULT_WORKSPACE_ID;
  if (!isUuid(workspaceId) || !core.state.workspaces[workspaceId]) {
    throw new DomainError('not_found', `No workspace ${String(workspaceId)}.`, { field: 'workspace_id' });
  }
  const app: ApplicationRecord = {
    id: newId(),
    workspace_id: workspaceId,
    name,
    environment,
    created_at: formatTimestamp(core.nowIn(workspaceId)),
  };
  // Stored before the event is routed (a new live application is among its recipients), taken
  // back if the event cannot be journaled with it.
  core.state.applications[app.id] = app;
  const alongside = core.durable ? [{ c: 'applications' as const, id: app.id, v: app }] : [];
  try {
    // The creation is workspace news, not a sandbox event (spec 6.1 lists the only sandbox sources),
    // so it goes to the live applications of the workspace, whichever environment the new one has.
    core.emit(
      'developer.application.created',
      { application_id: app.id, environment },
      { ...app, environment: 'live' },
      { livemode: true, alongside },
    );
  } catch (error) {
    delete core.state.applications[app.id];
    throw error;
  }
  return { ...app };
}
