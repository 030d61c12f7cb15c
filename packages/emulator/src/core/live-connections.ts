import type { Connection, Message } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { isUuid } from '../domain/ids';
import {
  connectionView,
  createInboundMessage,
  createLiveConnection,
  windowSlot,
} from '../domain/live-simulation';
import type { ConnectionRecord } from '../domain/records';
import { findApplication } from './applications';
import type { EmulatorCore } from './emulator-core';

function findLiveConnection(core: EmulatorCore, id: string): ConnectionRecord {
  const connection = isUuid(id) ? core.state.connections[id] : undefined;
  if (!connection) {
    throw new DomainError('not_found', `No simulated live connection ${id}; sandbox connections are fixed.`, {
      connection_id: id,
    });
  }
  return connection;
}

/** `POST /_emulator/applications/{id}/connections`: a simulated live number; emits `connection.connected`. */
export function createConnection(core: EmulatorCore, applicationId: string, input: unknown): Connection {
  const app = findApplication(core, applicationId);
  const record = createLiveConnection(app, input, core.nowIn(app.workspace_id));
  const connection = connectionView(record);
  // Journaled with its event's deliveries (data dir), then stored: a failed write leaves nothing.
  const alongside = core.durable ? [{ c: 'connections' as const, id: record.id, v: record }] : [];
  core.emit('connection.connected', { connection }, app, { alongside });
  core.state.connections[record.id] = record;
  return connection;
}

/** `POST /_emulator/connections/{id}/disconnect`: emits `connection.disconnected`. */
export function disconnectConnection(core: EmulatorCore, id: string): Connection {
  const record = findLiveConnection(core, id);
  const app = findApplication(core, record.application_id);
  if (record.status !== 'disconnected') {
    const disconnected: ConnectionRecord = { ...record, status: 'disconnected' };
    const alongside = core.durable ? [{ c: 'connections' as const, id: record.id, v: disconnected }] : [];
    core.emit('connection.disconnected', { connection: connectionView(disconnected) }, app, { alongside });
    record.status = 'disconnected';
  }
  return connectionView(record);
}

/** `POST /_emulator/connections/{id}/inbound`: stores the message, opens the sender's window, emits `message.received`. */
export function receiveInbound(core: EmulatorCore, id: string, input: unknown): Message {
  const connection = findLiveConnection(core, id);
  const app = findApplication(core, connection.application_id);
  const record = createInboundMessage(connection, app, input, core.nowIn(app.workspace_id));
  const slot = windowSlot(connection.id, record.message.from!);
  const alongside = core.durable
    ? [
        { c: 'messages' as const, id: record.message.id, v: record },
        { c: 'windows' as const, id: slot, v: record.accepted_at },
      ]
    : [];
  core.emit('message.received', { message: record.message }, app, { alongside });
  core.addMessage(record);
  core.state.windows[slot] = record.accepted_at;
  return record.message;
}
