import type { Connection, Message, SendMessageParams } from '@parley/sdk';
import { assertUnderDailyCap, sendsAfterThisOne } from '../domain/daily-cap';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, newId } from '../domain/ids';
import { magicRefusal } from '../domain/magic-recipients';
import type { MessageRecord } from '../domain/records';
import { connectionTemplates, templateReference } from '../domain/sandbox-fixtures';
import { sendFailure } from '../domain/send-outcome';
import { checkTemplate } from '../domain/send-params';
import type { JournalEntry } from '../store/persistence';
import { findConnection } from './connections';
import type { EmulatorCore } from './emulator-core';
import type { Caller } from './keys';

/** Where the send's idempotency record goes: the slot (API key + Idempotency-Key) and the body's fingerprint. */
export interface IdempotencySlot {
  slot: string;
  fingerprint: string;
}

/**
 * Accepts a validated send (`POST /v1/messages`): connection checks, template checks, the live
 * daily cap and window, then the new message, its idempotency record, its events and timers.
 *
 * With a data dir, the message, the idempotency record, the daily count and the deliveries of a
 * failed send's status event are journaled in one line before anything changes in memory: when
 * the write fails (full disk), `PersistenceError` is thrown and nothing is left behind, so a
 * retry with the same Idempotency-Key is a new send, not the replay of a message never stored.
 */
export function sendMessage(
  core: EmulatorCore,
  caller: Pick<Caller, 'application'>,
  params: SendMessageParams,
  idempotency: IdempotencySlot,
): MessageRecord {
  const connection = findConnectionForSend(core, caller, params.connection_id);
  if (connection.status !== 'active') {
    throw new DomainError('connection_inactive', `Connection ${connection.id} is disconnected.`, {
      connection_id: connection.id,
    });
  }
  const live = caller.application.environment === 'live';
  // Sandbox magic recipients that refuse the send (409, 429) do so here, before anything is stored.
  const refusal = live ? undefined : magicRefusal(params.to, connection.id);
  if (refusal) throw refusal;
  // The template's own strings are kept, not the request's copies: one less string per message.
  const template =
    params.type === 'template'
      ? checkTemplate(params.template, connectionTemplates(core.state.connections[connection.id]?.templates))
      : null;
  const now = core.nowIn(caller.application.workspace_id);
  const workspaceId = caller.application.workspace_id;
  if (live) assertUnderDailyCap(core.state.daily_sends, workspaceId, now);
  const timestamp = formatTimestamp(now);
  const error = sendFailure(params, { live, windows: core.state.windows, now });
  const message: Message = {
    id: newId(),
    object: 'message',
    direction: 'outbound',
    connection_id: connection.id,
    to: params.to,
    from: null,
    type: params.type,
    text: params.type === 'text' ? params.text : null,
    template: template && templateReference(template),
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
  // Kept for the conversation view only (the /v1 message never echoes them, spec §3).
  const variables = params.type === 'template' ? params.template.variables : undefined;
  if (variables !== undefined && variables.length > 0) record.variables = [...variables];
  const dailySends = live ? sendsAfterThisOne(core.state.daily_sends, workspaceId, now) : undefined;
  // Journal entries are built only when they reach a disk (`--data-dir`).
  const entries: JournalEntry[] = [];
  if (core.durable) {
    entries.push({ c: 'messages', id: message.id, v: record });
    entries.push(core.idempotency.entry(idempotency.slot, idempotency.fingerprint, message.id));
    if (dailySends) entries.push({ c: 'daily_sends', id: workspaceId, v: dailySends });
  }
  // spec 3.2: the failed status event is queued at once; emit journals it with the entries above.
  if (error) core.emit('message.status_updated', { message }, caller.application, { alongside: entries });
  else if (entries.length > 0) core.journal(entries);
  // Written (or no data dir): only now does memory change.
  core.addMessage(record);
  core.idempotency.commit(idempotency.slot, idempotency.fingerprint, message.id);
  if (dailySends) core.state.daily_sends[workspaceId] = dailySends;
  if (!error) core.scheduleMessage(record);
  core.changed();
  return record;
}

function findConnectionForSend(
  core: EmulatorCore,
  caller: Pick<Caller, 'application'>,
  id: string,
): Connection {
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
