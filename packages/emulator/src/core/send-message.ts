import type { Connection, Message, SendMessageParams } from '@parley/sdk';
import { assertUnderDailyCap, countSend } from '../domain/daily-cap';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, newId } from '../domain/ids';
import { insideWindow } from '../domain/live-simulation';
import { TEMPLATE_DEFINITIONS, templateReference } from '../domain/sandbox-fixtures';
import { checkTemplate } from '../domain/send-params';
import type { JournalEntry } from '../store/persistence';
import type { MessageRecord } from '../store/state';
import type { EmulatorCore } from './emulator-core';
import { type Caller, findConnection } from './v1-operations';

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
  core.state.messages[message.id] = record;
  const stored = alongside(message);
  // Journal entries are built only when they reach a disk (`--data-dir`).
  const entries: JournalEntry[] | undefined = core.durable
    ? [{ c: 'messages', id: message.id, v: record }, ...stored]
    : undefined;
  if (live) {
    countSend(core.state.daily_sends, workspaceId, now);
    entries?.push({ c: 'daily_sends', id: workspaceId, v: core.state.daily_sends[workspaceId] });
  }
  if (error) {
    // spec 3.2: the failed status event is queued at once; its deliveries are journaled with it.
    const before = entries ? new Set(Object.keys(core.state.webhooks.deliveries)) : undefined;
    core.emit('message.status_updated', { message }, caller.application);
    if (entries && before) {
      for (const [id, delivery] of Object.entries(core.state.webhooks.deliveries)) {
        if (!before.has(id)) entries.push({ c: 'deliveries', id, v: delivery });
      }
    }
  } else {
    core.scheduleMessage(record);
  }
  if (entries) core.journal(entries);
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
