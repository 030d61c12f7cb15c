import type { Environment, ListEnvelope, Message, WebhookEvent } from '@parley/sdk';
import { generateKey, hashKey, type KeyRecord, keyPrefix, parseScopes } from '../domain/api-keys';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid, newId } from '../domain/ids';
import { asObject as asObjectOrRefuse, invalid } from '../domain/input-checks';
import { newestFirstPage, type PageQuery } from '../domain/list-page';
import { messageAt } from '../domain/message-lifecycle';
import type { ApplicationRecord, MessageRecord } from '../domain/records';
import { MAX_RECENT_EVENTS } from '../store/state';
import { DEFAULT_WORKSPACE_ID } from './defaults';
import type { EmulatorCore } from './emulator-core';

// A control call without a body is one with every field left out.
function asObject(input: unknown): Record<string, unknown> {
  return input === undefined ? {} : asObjectOrRefuse(input);
}

function nameOf(body: Record<string, unknown>): string {
  const name = body.name;
  if (name === undefined) invalid('name', 'required', 'name is required.');
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
    invalid('name', 'invalid_type', 'name must be a string of 1 to 200 characters.');
  }
  return name;
}

/** A key as the control API shows it (never the key itself, except at creation). */
export function keyView(key: KeyRecord, environment: Environment) {
  const { id, application_id, prefix, scopes, created_at } = key;
  return { id, application_id, environment, prefix, scopes: [...scopes], created_at };
}

/** 404 unless the application exists. */
export function findApplication(core: EmulatorCore, id: string): ApplicationRecord {
  const app = isUuid(id) ? core.state.applications[id] : undefined;
  if (!app) throw new DomainError('not_found', `No application ${id}.`, { application_id: id });
  return app;
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
    workspace.agreement_accepted_at = formatTimestamp(core.nowIn(workspace.id));
  }
  const key = generateKey(app.environment);
  return { ...addKey(core, app, key, scopes), key };
}

/**
 * `DELETE /_emulator/keys/{id}`: the key stops authenticating at once (401 `invalid_api_key`,
 * DESIGN §2), also for a request of it still reading its body. Its window counts go with it.
 */
export function revokeKey(core: EmulatorCore, id: string): void {
  const key = isUuid(id) ? core.state.keys[id] : undefined;
  if (!key) throw new DomainError('not_found', `No key ${id}.`, { key_id: id });
  delete core.state.keys[id];
  delete core.state.rate_limits[id];
  core.unindexKey(key.hash);
}

/** Stores a key (its hash) and returns its view. */
export function addKey(core: EmulatorCore, app: ApplicationRecord, key: string, scopes: string[]) {
  const hash = hashKey(key);
  if (core.hasKeyHash(hash)) invalid('key', 'duplicate', 'This key already exists.');
  const record: KeyRecord = {
    id: newId(),
    application_id: app.id,
    hash,
    prefix: keyPrefix(key),
    scopes,
    created_at: formatTimestamp(core.nowIn(app.workspace_id)),
  };
  core.state.keys[record.id] = record;
  core.indexKey(hash, record.id);
  return keyView(record, app.environment);
}

/** Messages newest first, optionally of one application. */
export function listMessages(core: EmulatorCore, applicationId: string | undefined): Message[] {
  return messageRecords(core, applicationId).map((record) =>
    messageAt(record, core.nowIn(record.workspace_id)),
  );
}

/**
 * One page of messages newest first, optionally of one application: only the page's records
 * become messages (`messageAt`), however many are stored (a console polls this).
 */
export function messagePage(
  core: EmulatorCore,
  applicationId: string | undefined,
  query: PageQuery,
): ListEnvelope<Message> {
  const page = newestFirstPage(
    core.messageOrder,
    (id) => messageOfApplication(core, id, applicationId),
    query,
  );
  // Each message is as old as its workspace's clock says.
  const data = page.data.map((record) => messageAt(record, core.nowIn(record.workspace_id)));
  return { ...page, data };
}

/**
 * The records behind {@link listMessages}, newest first: a page of them is turned into messages
 * (`messageAt`) without building the current form of every stored message.
 */
export function messageRecords(core: EmulatorCore, applicationId: string | undefined): MessageRecord[] {
  const records: MessageRecord[] = [];
  for (let position = core.messageOrder.length - 1; position >= 0; position--) {
    const record = messageOfApplication(core, core.messageOrder[position]!, applicationId);
    if (record) records.push(record);
  }
  return records;
}

/** The stored message of this id if it belongs to the application (any application when undefined). */
export function messageOfApplication(
  core: EmulatorCore,
  id: string,
  applicationId: string | undefined,
): MessageRecord | undefined {
  const record = core.state.messages[id];
  return record && (applicationId === undefined || record.application_id === applicationId)
    ? record
    : undefined;
}

/** Recent events newest first, optionally those routed to one application. */
export function listEvents(core: EmulatorCore, applicationId: string | undefined): WebhookEvent[] {
  return core.state.events
    .slice(-MAX_RECENT_EVENTS)
    .filter((record) => applicationId === undefined || record.application_ids.includes(applicationId))
    .reverse()
    .map((record) => record.event);
}
