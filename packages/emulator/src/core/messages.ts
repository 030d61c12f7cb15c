import type { ListEnvelope, Message } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { isUuid } from '../domain/ids';
import { newestFirstPage, type PageQuery } from '../domain/list-page';
import { messageAt } from '../domain/message-lifecycle';
import type { MessageRecord } from '../domain/records';
import type { EmulatorCore, StateParts } from './emulator-core';
import type { Caller } from './keys';

/** What the message reads need: the records, their acceptance order, each workspace's time. */
type MessageRecords = StateParts<'messages'> & Pick<EmulatorCore, 'messageOrder' | 'nowIn'>;

/** `GET /v1/messages/{id}`: the message as it is now (status from age). */
export function getMessage(core: MessageRecords, caller: Caller, id: string): Message {
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

/** Messages newest first, optionally of one application. */
export function listMessages(core: MessageRecords, applicationId: string | undefined): Message[] {
  return messageRecords(core, applicationId).map((record) =>
    messageAt(record, core.nowIn(record.workspace_id)),
  );
}

/**
 * One page of messages newest first, optionally of one application: only the page's records
 * become messages (`messageAt`), however many are stored (a console polls this).
 */
export function messagePage(
  core: MessageRecords,
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
export function messageRecords(core: MessageRecords, applicationId: string | undefined): MessageRecord[] {
  const records: MessageRecord[] = [];
  for (let position = core.messageOrder.length - 1; position >= 0; position--) {
    const record = messageOfApplication(core, core.messageOrder[position]!, applicationId);
    if (record) records.push(record);
  }
  return records;
}

/** The stored message of this id if it belongs to the application (any application when undefined). */
export function messageOfApplication(
  core: StateParts<'messages'>,
  id: string,
  applicationId: string | undefined,
): MessageRecord | undefined {
  const record = core.state.messages[id];
  return record && (applicationId === undefined || record.application_id === applicationId)
    ? record
    : undefined;
}
