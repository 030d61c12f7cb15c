import { type Connection, isPhoneNumber, type ListEnvelope, type Message } from '@parley/sdk';
import { DAILY_SEND_LIMIT, sendsToday } from '../domain/daily-cap';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp } from '../domain/ids';
import { asObject, invalid } from '../domain/input-checks';
import { listPage, type PageQuery } from '../domain/list-page';
import { checkCustomerText, MESSAGING_WINDOW_MS, windowSlot } from '../domain/live-simulation';
import { magicRecipient } from '../domain/magic-recipients';
import { messageAt, stepsOf } from '../domain/message-lifecycle';
import type { ApplicationRecord, MessageRecord } from '../domain/records';
import { fillTemplate } from '../domain/template-variables';
import { findApplication } from './applications';
import { applicationConnections, type ConnectionWithTemplates } from './connections';
import type {
  ConversationItem,
  ConversationQuery,
  ConversationStatusStep,
  ConversationSummary,
  ConversationView,
} from './conversation-types';
import type { EmulatorCore } from './emulator-core';
import { receiveInbound } from './live-connections';
import { messageRecords } from './messages';
import { createSandboxEvent } from './sandbox-events';

/** A thread's messages shown at most (the newest). */
export const CONVERSATION_ITEM_LIMIT = 200;

/** The customer of a message: its sender inbound, its recipient outbound. */
function customerOf(message: Message): string | null {
  return message.direction === 'inbound' ? message.from : message.to;
}

/**
 * `GET /_emulator/applications/{id}/conversations`: one thread per (connection, customer number)
 * of the application's stored messages, newest first, optionally of one connection.
 */
export function listConversations(
  core: EmulatorCore,
  applicationId: string,
  query: PageQuery & { connectionId?: string },
): ListEnvelope<ConversationSummary> {
  findApplication(core, applicationId);
  const { connectionId, ...page } = query;
  // Keys joined with a newline (never in a number or a UUID); a Map, as the parts come from outside.
  const threads = new Map<string, ConversationSummary>();
  for (const record of messageRecords(core, applicationId)) {
    const { message } = record;
    const customer = customerOf(message);
    if (customer === null) continue;
    if (connectionId !== undefined && message.connection_id !== connectionId) continue;
    const key = windowSlot(message.connection_id, customer);
    const known = threads.get(key);
    if (known) {
      known.message_count++;
      continue;
    }
    threads.set(key, {
      connection_id: message.connection_id,
      customer,
      last_message_at: message.created_at,
      last_text: message.text ?? message.template?.name ?? null,
      last_direction: message.direction,
      message_count: 1,
    });
  }
  return listPage([...threads.values()], page);
}

/** `GET /_emulator/applications/{id}/conversation?connection_id=&number=`: one thread and its rules. */
export function getConversation(
  core: EmulatorCore,
  applicationId: string,
  query: ConversationQuery,
): ConversationView {
  const app = findApplication(core, applicationId);
  const connection = threadConnection(core, app, query.connectionId);
  const customer = query.number;
  if (!isPhoneNumber(customer)) {
    invalid('number', 'invalid_format', 'number must be "+" followed by 8 to 15 digits.');
  }
  const now = core.nowIn(app.workspace_id);
  const records = messageRecords(core, app.id).filter(
    (record) => record.message.connection_id === connection.id && customerOf(record.message) === customer,
  );
  const shown = records.slice(0, CONVERSATION_ITEM_LIMIT).reverse();
  const live = app.environment === 'live';
  return {
    application_id: app.id,
    environment: app.environment,
    connection: withoutTemplates(connection),
    customer,
    now: formatTimestamp(now),
    window: live ? windowOf(core.state.windows[windowSlot(connection.id, customer)], now) : null,
    daily_cap: live
      ? { limit: DAILY_SEND_LIMIT, sent_today: sendsToday(core.state.daily_sends, app.workspace_id, now) }
      : null,
    read_rule: readRule(live, customer),
    items: shown.map((record) => itemOf(record, now, connection)),
    earlier: records.length - shown.length,
  };
}

/**
 * `POST /_emulator/applications/{id}/conversation/messages`: the customer writes. A live
 * application gets it as `POST /_emulator/connections/{id}/inbound` does (the window opens); a
 * sandbox one as a synthetic `message.received` whose sender and text are the typed ones (DESIGN §4).
 */
export function messageAsCustomer(core: EmulatorCore, applicationId: string, input: unknown): Message {
  const app = findApplication(core, applicationId);
  const body = asObject(input);
  if (typeof body.connection_id !== 'string') {
    invalid('connection_id', 'required', 'connection_id is required.');
  }
  const connection = threadConnection(core, app, body.connection_id);
  // Checked alike for both environments, under the body's own field names.
  checkCustomerText(body);
  if (app.environment === 'live')
    return receiveInbound(core, connection.id, { from: body.from, text: body.text });
  if (connection.status !== 'active') {
    throw new DomainError(
      'connection_inactive',
      `The sandbox connection ${connection.id} is disconnected: synthetic messages arrive on the active one.`,
      { connection_id: connection.id },
    );
  }
  // The sandbox's only inbound source is a synthetic event (spec 4.6), its sender and text overridden.
  const overrides = { 'data.message.from': body.from, 'data.message.text': body.text };
  const caller = { application: app } as Parameters<typeof createSandboxEvent>[1];
  const sent = createSandboxEvent(core, caller, { type: 'message.received', overrides });
  return (sent.data as { message: Message }).message;
}

function threadConnection(core: EmulatorCore, app: ApplicationRecord, id: string): ConnectionWithTemplates {
  const connection = applicationConnections(core, app.id).find((candidate) => candidate.id === id);
  if (!connection) {
    throw new DomainError('not_found', `No connection ${id} of application ${app.id}.`, {
      connection_id: id,
    });
  }
  return connection;
}

function withoutTemplates(connection: ConnectionWithTemplates): Connection {
  const { templates: _, ...rest } = connection;
  return rest;
}

function windowOf(openedAt: number | undefined, now: number): NonNullable<ConversationView['window']> {
  if (openedAt === undefined) return { open: false, opened_at: null, expires_at: null, remaining_ms: 0 };
  const remaining = Math.max(0, openedAt + MESSAGING_WINDOW_MS - now);
  return {
    open: remaining > 0,
    opened_at: formatTimestamp(openedAt),
    expires_at: formatTimestamp(openedAt + MESSAGING_WINDOW_MS),
    remaining_ms: remaining,
  };
}

function readRule(live: boolean, customer: string): string {
  if (live)
    return 'The customer reads each delivered message 10 s after it was accepted (the simulated read step): advance the clock.';
  if (magicRecipient(customer)?.behaviour === 'read')
    return 'This magic number reads each message 10 s after it was accepted: advance the clock.';
  return 'Sandbox messages stop at delivered: only the magic number +15550101002 reads them (docs/emulator.md#magic-numbers).';
}

function itemOf(record: MessageRecord, now: number, connection: ConnectionWithTemplates): ConversationItem {
  const message = messageAt(record, now);
  const template = message.template;
  const definition =
    template === null
      ? undefined
      : connection.templates.find((t) => t.name === template.name && t.language === template.language);
  const body = definition === undefined ? null : fillTemplate(definition.body, record.variables);
  return { message, history: historyOf(record, now), template_body: body };
}

function historyOf(record: MessageRecord, now: number): ConversationStatusStep[] {
  const { message } = record;
  const first = { status: message.status, at: message.created_at };
  if (message.direction === 'inbound') return [first];
  const steps: ConversationStatusStep[] = [first];
  for (const step of stepsOf(record)) {
    if (now - record.accepted_at < step.age) break;
    steps.push({ status: step.status, at: formatTimestamp(record.accepted_at + step.age) });
  }
  return steps;
}
