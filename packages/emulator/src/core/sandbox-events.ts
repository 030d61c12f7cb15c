import { type Connection, SANDBOX_EVENT_TYPES, type SandboxEventResult } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, newId } from '../domain/ids';
import {
  SANDBOX_CONNECTIONS,
  syntheticInboundMessage,
  syntheticStatusMessage,
} from '../domain/sandbox-fixtures';
import { WEBHOOK_TEST_MESSAGE } from '../webhooks/webhook-test-event';
import type { EmulatorCore } from './emulator-core';
import type { Caller } from './v1-operations';

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
  // emit journaled the deliveries (data dir) before they were queued: a restart resumes them.
  core.changed();
  return { ...sent.event, deliveries_queued: sent.deliveries.length };
}
