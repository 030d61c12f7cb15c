import type { Connection, Environment, Message, RateLimitBucket, WebhookEvent } from '@parley/sdk';
import { generateKey, hashKey, type KeyRecord, keyPrefix, parseScopes } from '../domain/api-keys';
import { DAILY_SEND_LIMIT, sendsToday, utcDay } from '../domain/daily-cap';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, newId } from '../domain/ids';
import { createInboundMessage, createLiveConnection, windowSlot } from '../domain/live-simulation';
import { messageAt } from '../domain/message-lifecycle';
import { type BucketReport, usageOf } from '../domain/rate-limit-window';
import {
  type ApplicationRecord,
  type ConnectionRecord,
  MAX_RECENT_EVENTS,
  type WorkspaceRecord,
} from '../store/state';
import { DEFAULT_WORKSPACE_ID } from './defaults';
import type { EmulatorCore } from './emulator-core';

function invalid(field: string, reason: string, message: string): never {
  throw new DomainError('validation_error', message, { field, reason });
}

function asObject(input: unknown): Record<string, unknown> {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return invalid('body', 'invalid_type', 'The body must be a JSON object.');
  }
  return input as Record<string, unknown>;
}

function nameOf(body: Record<string, unknown>): string {
  const name = body.name;
  if (name === undefined) invalid('name', 'required', 'name is required.');
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
    invalid('name', 'invalid_type', 'name must be a string of 1 to 200 characters.');
  }
  return name;
}

/** A workspace as the control API shows it. */
export function workspaceView({ id, name, created_at }: WorkspaceRecord) {
  return { id, name, created_at };
}

/** A key as the control API shows it (never the key itself, except at creation). */
export function keyView(key: KeyRecord, environment: Environment) {
  const { id, application_id, prefix, scopes, created_at } = key;
  return { id, application_id, environment, prefix, scopes: [...scopes], created_at };
}

function connectionView(record: ConnectionRecord): Connection {
  const { application_id: _, ...connection } = record;
  return connection;
}

/** 404 unless the application exists. */
export function findApplication(core: EmulatorCore, id: string): ApplicationRecord {
  const app = core.state.applications[id];
  if (!app) throw new DomainError('not_found', `No application ${id}.`, { application_id: id });
  return app;
}

function findLiveConnection(core: EmulatorCore, id: string): ConnectionRecord {
  const connection = core.state.connections[id];
  if (!connection) {
    throw new DomainError('not_found', `No simulated live connection ${id}; sandbox connections are fixed.`, {
      connection_id: id,
    });
  }
  return connection;
}

/** `POST /_emulator/workspaces`. */
export function createWorkspace(core: EmulatorCore, input: unknown) {
  const record: WorkspaceRecord = {
    id: newId(),
    name: nameOf(asObject(input)),
    created_at: formatTimestamp(core.now()),
    agreement_accepted_at: null,
  };
  core.state.workspaces[record.id] = record;
  return workspaceView(record);
}

/** `POST /_emulator/applications`: emits `developer.application.created` (a live, workspace-wide event). */
export function createApplication(core: EmulatorCore, input: unknown): ApplicationRecord {
  const body = asObject(input);
  const name = nameOf(body);
  const environment = body.environment;
  if (environment !== 'live' && environment !== 'sandbox') {
    invalid('environment', 'invalid_value', 'environment must be "live" or "sandbox".');
  }
  const workspaceId = body.workspace_id ?? DEFAULT_WORKSPACE_ID;
  if (typeof workspaceId !== 'string' || !core.state.workspaces[workspaceId]) {
    throw new DomainError('not_found', `No workspace ${String(workspaceId)}.`, { field: 'workspace_id' });
  }
  const app: ApplicationRecord = {
    id: newId(),
    workspace_id: workspaceId,
    name,
    environment,
    created_at: formatTimestamp(core.now()),
  };
  core.state.applications[app.id] = app;
  // The creation is workspace news, not a sandbox event (spec 6.1 lists the only sandbox sources),
  // so it goes to the live applications of the workspace, whichever environment the new one has.
  core.emit(
    'developer.application.created',
    { application_id: app.id, environment },
    { ...app, environment: 'live' },
    true,
  );
  return { ...app };
}

/** `POST /_emulator/applications/{id}/keys`: the key is in this answer only. */
export function createKey(core: EmulatorCore, applicationId: string, input: unknown) {
  const app = findApplication(core, applicationId);
  const body = asObject(input);
  const scopes = parseScopes(body.scopes);
  const workspace = core.state.workspaces[app.workspace_id]!;
  if (app.environment === 'live' && workspace.agreement_accepted_at === null) {
    if (body.accept_agreement !== true) {
      throw new DomainError(
        'agreement_required',
        'The first live key of a workspace requires accepting the developer agreement: send "accept_agreement": true.',
      );
    }
    workspace.agreement_accepted_at = formatTimestamp(core.now());
  }
  const key = generateKey(app.environment);
  return { ...addKey(core, app, key, scopes), key };
}

/** Stores a key (its hash) and returns its view. */
export function addKey(core: EmulatorCore, app: ApplicationRecord, key: string, scopes: string[]) {
  const hash = hashKey(key);
  if (core.keyIndex.has(hash)) invalid('key', 'duplicate', 'This key already exists.');
  const record: KeyRecord = {
    id: newId(),
    application_id: app.id,
    hash,
    prefix: keyPrefix(key),
    scopes,
    created_at: formatTimestamp(core.now()),
  };
  core.state.keys[record.id] = record;
  core.indexKey(hash, record.id);
  return keyView(record, app.environment);
}

/** `POST /_emulator/applications/{id}/connections`: a simulated live number; emits `connection.connected`. */
export function createConnection(core: EmulatorCore, applicationId: string, input: unknown): Connection {
  const app = findApplication(core, applicationId);
  const record = createLiveConnection(app, input, core.now());
  core.state.connections[record.id] = record;
  const connection = connectionView(record);
  core.emit('connection.connected', { connection }, app);
  return connection;
}

/** `POST /_emulator/connections/{id}/disconnect`: emits `connection.disconnected`. */
export function disconnectConnection(core: EmulatorCore, id: string): Connection {
  const record = findLiveConnection(core, id);
  const app = findApplication(core, record.application_id);
  if (record.status !== 'disconnected') {
    record.status = 'disconnected';
    core.emit('connection.disconnected', { connection: connectionView(record) }, app);
  }
  return connectionView(record);
}

/** `POST /_emulator/connections/{id}/inbound`: stores the message, opens the sender's window, emits `message.received`. */
export function receiveInbound(core: EmulatorCore, id: string, input: unknown): Message {
  const connection = findLiveConnection(core, id);
  const app = findApplication(core, connection.application_id);
  const record = createInboundMessage(connection, app, input, core.now());
  core.state.messages[record.message.id] = record;
  core.state.windows[windowSlot(connection.id, record.message.from!)] = record.accepted_at;
  core.emit('message.received', { message: record.message }, app);
  return record.message;
}

/** `GET /_emulator/usage`: per key the current window, per workspace the sends of today. */
export function usage(core: EmulatorCore, applicationId: string | undefined) {
  if (applicationId !== undefined) findApplication(core, applicationId);
  const now = core.now();
  const keys = Object.values(core.state.keys).filter(
    (key) => applicationId === undefined || key.application_id === applicationId,
  );
  const workspaceIds = new Set(
    applicationId === undefined
      ? Object.keys(core.state.workspaces)
      : [core.state.applications[applicationId]!.workspace_id],
  );
  return {
    object: 'usage',
    rate_limits_enabled: core.rateLimits,
    keys: keys.map((key) => ({
      key_id: key.id,
      application_id: key.application_id,
      prefix: key.prefix,
      buckets: bucketUsage(usageOf(core.state.rate_limits, key.id, now)),
    })),
    workspaces: [...workspaceIds].map((workspaceId) => ({
      workspace_id: workspaceId,
      day: utcDay(now),
      sends_today: sendsToday(core.state.daily_sends, workspaceId, now),
      daily_limit: DAILY_SEND_LIMIT,
    })),
  };
}

/** Messages newest first, optionally of one application. */
export function listMessages(core: EmulatorCore, applicationId: string | undefined): Message[] {
  const now = core.now();
  return Object.values(core.state.messages)
    .filter((record) => applicationId === undefined || record.application_id === applicationId)
    .reverse()
    .map((record) => messageAt(record, now));
}

/** Recent events newest first, optionally those routed to one application. */
export function listEvents(core: EmulatorCore, applicationId: string | undefined): WebhookEvent[] {
  return core.state.events
    .slice(-MAX_RECENT_EVENTS)
    .filter((record) => applicationId === undefined || record.application_ids.includes(applicationId))
    .reverse()
    .map((record) => record.event);
}

function bucketUsage(reports: Record<RateLimitBucket, BucketReport>) {
  const figures = ({ limit, remaining, resetSeconds }: BucketReport) => ({
    limit,
    used: limit - remaining,
    remaining,
    reset: resetSeconds,
  });
  return {
    requests: figures(reports.requests),
    sends: figures(reports.sends),
    templates: figures(reports.templates),
  };
}
