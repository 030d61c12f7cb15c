import type { Connection, Message } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { createInboundMessage, createLiveConnection, windowSlot } from '../domain/live-simulation';
import type { ConnectionRecord } from '../store/state';
import { findApplication } from './control-operations';
import type { EmulatorCore } from './emulator-core';

function connectionView(record: ConnectionRecord): Connection {
  const { application_id: _, ...connection } = record;
  return connection;
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
