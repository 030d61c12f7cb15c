import type { Connection, Template } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { isUuid } from '../domain/ids';
import { connectionView } from '../domain/live-simulation';
import { SANDBOX_CONNECTIONS, sandboxConnection, templatesOf } from '../domain/sandbox-fixtures';
import { findApplication } from './applications';
import type { StateParts } from './emulator-core';
import type { Caller } from './keys';

/** What the connection operations read: the simulated live numbers, and applications by id. */
type ConnectionRecords = StateParts<'connections' | 'applications'>;

/** The connections of the caller's application: the two fixtures in the sandbox. */
export function listConnections(core: ConnectionRecords, caller: Pick<Caller, 'application'>): Connection[] {
  if (caller.application.environment === 'sandbox') return [...SANDBOX_CONNECTIONS];
  return Object.values(core.state.connections)
    .filter((connection) => connection.application_id === caller.application.id)
    .map(connectionView);
}

/** One connection of the caller's application (404 `not_found`). */
export function findConnection(
  core: ConnectionRecords,
  caller: Pick<Caller, 'application'>,
  id: string,
): Connection {
  let found: Connection | undefined;
  if (isUuid(id)) {
    if (caller.application.environment === 'sandbox') found = sandboxConnection(id);
    else {
      const record = core.state.connections[id];
      if (record?.application_id === caller.application.id) found = connectionView(record);
    }
  }
  if (!found) throw new DomainError('not_found', `No connection ${id}.`, { connection_id: id });
  return found;
}

/** `GET /v1/connections/{id}/templates`: the two every connection carries, then its own. */
export function listTemplates(
  core: ConnectionRecords,
  caller: Pick<Caller, 'application'>,
  connectionId: string,
): Template[] {
  const { id } = findConnection(core, caller, connectionId);
  return templatesOf(id, core.state.connections[id]?.templates);
}

/** A connection with what it can send, as the console lists it. */
export type ConnectionWithTemplates = Connection & { templates: Template[] };

/**
 * `GET /_emulator/applications/{id}/connections`: what `GET /v1/connections` lists for the
 * application (the two sandbox fixtures, or its simulated live numbers), each with its templates.
 */
export function applicationConnections(
  core: ConnectionRecords,
  applicationId: string,
): ConnectionWithTemplates[] {
  const application = findApplication(core, applicationId);
  return listConnections(core, { application }).map((connection) => ({
    ...connection,
    templates: listTemplates(core, { application }, connection.id),
  }));
}
