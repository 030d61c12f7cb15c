import type { Connection, Message, Status, Template } from '@parley/sdk';
import { bearerToken, capabilities, type KeyRecord } from '../domain/api-keys';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid } from '../domain/ids';
import { connectionView } from '../domain/live-simulation';
import { messageAt } from '../domain/message-lifecycle';
import type { ApplicationRecord, MessageRecord } from '../domain/records';
import { SANDBOX_CONNECTIONS, sandboxConnection, templatesOf } from '../domain/sandbox-fixtures';
import type { EmulatorCore } from './emulator-core';

/** The authenticated caller of a /v1 request. */
export interface Caller {
  key: KeyRecord;
  application: ApplicationRecord;
}

/** Authenticates `Authorization: Bearer …` (401 `missing_api_key` / `invalid_api_key`). */
export function authenticate(core: EmulatorCore, authorization: string | null): Caller {
  const token = bearerToken(authorization);
  if (token === undefined) {
    throw new DomainError('missing_api_key', 'Send your API key as "Authorization: Bearer <API_KEY>".');
  }
  const key = core.findKey(token);
  const application = key && core.state.applications[key.application_id];
  if (!key || !application) throw new DomainError('invalid_api_key', 'This API key is unknown or revoked.');
  return { key, application };
}

/** `GET /v1/status` (spec 2.2). */
export function getStatus(core: EmulatorCore, caller: Caller): Status {
  return {
    status: 'authenticated',
    application_id: caller.application.id,
    workspace_id: caller.application.workspace_id,
    environment: caller.application.environment,
    scopes: [...caller.key.scopes],
    timestamp: formatTimestamp(core.nowIn(caller.application.workspace_id)),
    capabilities: capabilities(caller.key.scopes),
    sandbox_external_calls: false,
  };
}

/** The connections of the caller's application: the two fixtures in the sandbox. */
export function listConnections(core: EmulatorCore, caller: Pick<Caller, 'application'>): Connection[] {
  if (caller.application.environment === 'sandbox') return [...SANDBOX_CONNECTIONS];
  return Object.values(core.state.connections)
    .filter((connection) => connection.application_id === caller.application.id)
    .map(connectionView);
}

/** One connection of the caller's application (404 `not_found`). */
export function findConnection(
  core: EmulatorCore,
  caller: Pick<Caller, 'application'>,
  id: string,
): Connection {
  const record = isUuid(id) ? core.state.connections[id] : undefined;
  const found = !isUuid(id)
    ? undefined
    : caller.application.environment === 'sandbox'
      ? sandboxConnection(id)
      : record?.application_id === caller.application.id
        ? connectionView(record)
        : undefined;
  if (!found) throw new DomainError('not_found', `No connection ${id}.`, { connection_id: id });
  return found;
}

/** `GET /v1/connections/{id}/templates`: the two every connection carries, then its own. */
export function listTemplates(
  core: EmulatorCore,
  caller: Pick<Caller, 'application'>,
  connectionId: string,
): Template[] {
  const { id } = findConnection(core, caller, connectionId);
  return templatesOf(id, core.state.connections[id]?.templates);
}

/** `GET /v1/messages/{id}`: the message as it is now (status from age). */
export function getMessage(core: EmulatorCore, caller: Caller, id: string): Message {
  const record = isUuid(id) ? core.state.messages[id] : undefined;
  if (!record || record.application_id !== caller.application.id) {
    throw new DomainError('not_found', `No message ${id}.`, { message_id: id });
  }
  return messageAt(record, core.nowIn(record.workspace_id));
}

/** The 202 body of an accepted send, as it was at acceptance (replays answer it again). */
export function acceptedView(record: MessageRecord): Message {
  return messageAt(record, record.accepted_at);
}
