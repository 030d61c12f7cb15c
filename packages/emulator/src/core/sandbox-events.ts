import {
  type Connection,
  type Message,
  SANDBOX_EVENT_TYPES,
  type SandboxEventResult,
  type SandboxEventType,
} from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, newId } from '../domain/ids';
import { stepsOf } from '../domain/message-lifecycle';
import type { ApplicationRecord, MessageRecord } from '../domain/records';
import { withSandboxEventOverrides } from '../domain/sandbox-event-overrides';
import {
  SANDBOX_CONNECTIONS,
  syntheticInboundMessage,
  syntheticStatusMessage,
} from '../domain/sandbox-fixtures';
import { WEBHOOK_TEST_MESSAGE } from '../webhooks/webhook-test-event';
import type { EmulatorCore } from './emulator-core';
import type { Caller } from './keys';

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
  const now = core.nowIn(app.workspace_id);
  const timestamp = formatTimestamp(now);
  const [active, disconnected] = SANDBOX_CONNECTIONS as [Connection, Connection];
  const overrides = (body as { overrides?: unknown }).overrides;
  // Applied to the data before anything is emitted or stored: a refused override changes nothing.
  const withOverrides = <Data extends object>(data: Data) =>
    withSandboxEventOverrides(type as SandboxEventType, data, overrides);
  const sent =
    type === 'message.received'
      ? emitAboutStoredMessage(
          core,
          app,
          'message.received',
          withOverrides({ message: syntheticInboundMessage(newId(), timestamp) }).message,
          now,
        )
      : type === 'message.status_updated'
        ? emitAboutStoredMessage(
            core,
            app,
            'message.status_updated',
            withOverrides({ message: syntheticStatusMessage(newId(), timestamp) }).message,
            now,
          )
        : type === 'connection.connected'
          ? core.emit('connection.connected', withOverrides({ connection: { ...active } }), app)
          : type === 'connection.disconnected'
            ? // The disconnected fixture, so the event and GET /connections agree (docs/decisions.md).
              core.emit('connection.disconnected', withOverrides({ connection: { ...disconnected } }), app)
            : core.emit('webhook.test', withOverrides({ message: WEBHOOK_TEST_MESSAGE }), app);
  // emit journaled the deliveries (data dir) before they were queued: a restart resumes them.
  core.changed();
  return { ...sent.event, deliveries_queued: sent.deliveries.length };
}

/**
 * Emits a synthetic message event and stores its message, so a receiver's usual "webhook arrives,
 * fetch the resource" (`GET /v1/messages/{id}`) finds it (docs/decisions.md). The stored message
 * has already reached its status: its steps lie in the past and count as announced, so it never
 * changes nor emits anything more. (An overridden status other than the sandbox's last, such as
 * `sent`, is the event's only: the stored message is at the status its steps end on.)
 */
function emitAboutStoredMessage(
  core: EmulatorCore,
  app: ApplicationRecord,
  type: 'message.received' | 'message.status_updated',
  message: Message,
  now: number,
) {
  const draft: MessageRecord = {
    message,
    application_id: app.id,
    workspace_id: app.workspace_id,
    accepted_at: now,
    announced: 0,
  };
  const steps = stepsOf(draft);
  const record: MessageRecord = {
    ...draft,
    accepted_at: now - (steps.at(-1)?.age ?? 0),
    announced: steps.length,
  };
  const alongside = core.durable ? [{ c: 'messages' as const, id: message.id, v: record }] : [];
  const sent = core.emit(type, { message }, app, { alongside });
  core.addMessage(record);
  return sent;
}
