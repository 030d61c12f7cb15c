import {
  type Connection,
  type Message,
  SANDBOX_EVENT_TYPES,
  type SandboxEventResult,
  type SendMessageParams,
  type Status,
  type Template,
} from '@parley/sdk';
import { bearerToken, capabilities, type KeyRecord } from '../domain/api-keys';
import { assertUnderDailyCap, countSend } from '../domain/daily-cap';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid, newId } from '../domain/ids';
import { insideWindow } from '../domain/live-simulation';
import { messageAt } from '../domain/message-lifecycle';
import {
  SANDBOX_CONNECTIONS,
  sandboxConnection,
  syntheticInboundMessage,
  syntheticStatusMessage,
  TEMPLATE_DEFINITIONS,
  templatesOf,
} from '../domain/sandbox-fixtures';
import { checkTemplate } from '../domain/send-params';
import type { JournalEntry } from '../store/persistence';
import type { ApplicationRecord, MessageRecord } from '../store/state';
import { WEBHOOK_TEST_MESSAGE } from '../webhooks/webhook-test-event';
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
    timestamp: formatTimestamp(core.now()),
    capabilities: capabilities(caller.key.scopes),
    sandbox_external_calls: false,
  };
}

/** The connections of the caller's application: the two fixtures in the sandbox. */
export function listConnections(core: EmulatorCore, caller: Caller): Connection[] {
  if (caller.application.environment === 'sandbox') return [...SANDBOX_CONNECTIONS];
  return Object.values(core.state.connections)
    .filter((connection) => connection.application_id === caller.application.id)
    .map(({ application_id: _, ...connection }) => connection);
}

/** One connection of the caller's application (404 `not_found`). */
export function findConnection(core: EmulatorCore, caller: Caller, id: string): Connection {
  const found =
    caller.application.environment === 'sandbox'
      ? sandboxConnection(id)
      : core.state.connections[id]?.application_id === caller.application.id
        ? core.state.connections[id]
        : undefined;
  if (!found) throw new DomainError('not_found', `No connection ${id}.`, { connection_id: id });
  if (!('application_id' in found)) return found;
  const { application_id: _, ...connection } = found;
  return connection;
}

/** `GET /v1/connections/{id}/templates`. */
export function listTemplates(core: EmulatorCore, caller: Caller, connectionId: string): Template[] {
  return templatesOf(findConnection(core, caller, connectionId).id);
}

/** `GET /v1/messages/{id}`: the message as it is now (status from age). */
export function getMessage(core: EmulatorCore, caller: Caller, id: string): Message {
  const record = isUuid(id) ? core.state.messages[id] : undefined;
  if (!record || record.application_id !== caller.application.id) {
    throw new DomainError('not_found', `No message ${id}.`, { message_id: id });
  }
  return messageAt(record, core.now());
}

/** The 202 body of an accepted send, as it was at acceptance (replays answer it again). */
export function acceptedView(record: MessageRecord): Message {
  return messageAt(record, record.accepted_at);
}

/**
 * Accepts a validated send (`POST /v1/messages`): connection checks, template checks, the live
 * daily cap and window, then the new message, its events and timers. `alongside` stores what must
 * be journaled with it (the idempotency record) before the 202 goes out.
 */
export function sendMessage(
  core: EmulatorCore,
  caller: Caller,
  params: SendMessageParams,
  alongside: (message: Message) => JournalEntry[],
): MessageRecord {
  const connection = findConnectionForSend(core, caller, params.connection_id);
  if (connection.status !== 'active') {
    throw new DomainError('connection_inactive', `Connection ${connection.id} is disconnected.`, {
      connection_id: connection.id,
    });
  }
  // The template's own strings are kept, not the request's copies: one less string per message.
  const template = params.type === 'template' ? checkTemplate(params.template, TEMPLATE_DEFINITIONS) : null;
  const now = core.now();
  const live = caller.application.environment === 'live';
  const workspaceId = caller.application.workspace_id;
  if (live) assertUnderDailyCap(core.state.daily_sends, workspaceId, now);
  const timestamp = formatTimestamp(now);
  const error = failureOf(core, params, live, now);
  const message: Message = {
    id: newId(),
    object: 'message',
    direction: 'outbound',
    connection_id: connection.id,
    to: params.to,
    from: null,
    type: params.type,
    text: params.type === 'text' ? params.text : null,
    template: template && { name: template.name, language: template.language },
    status: error ? 'failed' : 'queued',
    error,
    client_reference: params.client_reference ?? null,
    created_at: timestamp,
    updated_at: timestamp,
    livemode: live,
  };
  const record: MessageRecord = {
    message,
    application_id: caller.application.id,
    workspace_id: workspaceId,
    accepted_at: now,
    announced: 0,
  };
  core.state.messages[message.id] = record;
  const entries: JournalEntry[] = [{ c: 'messages', id: message.id, v: record }, ...alongside(message)];
  if (live) {
    countSend(core.state.daily_sends, workspaceId, now);
    entries.push({ c: 'daily_sends', id: workspaceId, v: core.state.daily_sends[workspaceId] });
  }
  if (error) {
    // spec 3.2: the failed status event is queued at once; its deliveries are journaled with it.
    const before = core.durable ? new Set(Object.keys(core.state.webhooks.deliveries)) : undefined;
    core.emit('message.status_updated', { message }, caller.application);
    if (before) {
      for (const [id, delivery] of Object.entries(core.state.webhooks.deliveries)) {
        if (!before.has(id)) entries.push({ c: 'deliveries', id, v: delivery });
      }
    }
  } else {
    core.scheduleMessage(record);
  }
  if (core.durable) core.journal(entries);
  core.changed();
  return record;
}

function findConnectionForSend(core: EmulatorCore, caller: Caller, id: string): Connection {
  try {
    return findConnection(core, caller, id);
  } catch (error) {
    if (error instanceof DomainError) {
      throw new DomainError('not_found', `No connection ${id} in this application.`, {
        field: 'connection_id',
        connection_id: id,
      });
    }
    throw error;
  }
}

function failureOf(
  core: EmulatorCore,
  params: SendMessageParams,
  live: boolean,
  now: number,
): Message['error'] {
  if (!live && params.to.endsWith('0000')) {
    return { code: 'recipient_unreachable', message: `The sandbox recipient ${params.to} is unreachable.` };
  }
  if (
    live &&
    params.type === 'text' &&
    !insideWindow(core.state.windows, params.connection_id, params.to, now)
  ) {
    return {
      code: 'outside_messaging_window',
      message: `${params.to} has not written to this number in the last 24 hours; send a template instead.`,
    };
  }
  return null;
}

/** `POST /v1/sandbox/events` (spec 4.6): one synthetic event to the caller's sandbox endpoints. */
export function createSandboxEvent(core: EmulatorCore, caller: Caller, body: unknown): SandboxEventResult {
  if (caller.application.environment !== 'sandbox') {
    throw new DomainError('sandbox_only', 'POST /v1/sandbox/events takes sandbox keys only.');
  }
  const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
  if (type === undefined) {
    throw new DomainError('validation_error', 'type is required.', { field: 'type', reason: 'required' });
  }
  const known = (SANDBOX_EVENT_TYPES as readonly unknown[]).includes(type);
  if (!known) {
    throw new DomainError(
      'validation_error',
      `type must be one of: ${SANDBOX_EVENT_TYPES.join(', ')} (developer.application.created cannot be produced).`,
      { field: 'type', reason: type === 'developer.application.created' ? 'not_allowed' : 'invalid_value' },
    );
  }
  const app = caller.application;
  const timestamp = formatTimestamp(core.now());
  const [first] = SANDBOX_CONNECTIONS as [Connection];
  const sent =
    type === 'message.received'
      ? core.emit('message.received', { message: syntheticInboundMessage(newId(), timestamp) }, app)
      : type === 'message.status_updated'
        ? core.emit('message.status_updated', { message: syntheticStatusMessage(newId(), timestamp) }, app)
        : type === 'connection.connected'
          ? core.emit('connection.connected', { connection: { ...first } }, app)
          : type === 'connection.disconnected'
            ? core.emit('connection.disconnected', { connection: { ...first, status: 'disconnected' } }, app)
            : core.emit('webhook.test', { message: WEBHOOK_TEST_MESSAGE }, app);
  core.changed();
  return { ...sent.event, deliveries_queued: sent.queued };
}
