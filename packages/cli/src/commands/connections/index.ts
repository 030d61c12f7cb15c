import type { Connection } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { colorStatus } from '../../output/status-color';
import { renderTable } from '../../output/table';
import { defineCommand } from '../command-module';

/** `GET /v1/connections`, every page: the application's business numbers. */
export async function listConnections(
  options: ClientOptions,
  context: CommandContext,
): Promise<Connection[]> {
  const api = await openApiSession(options, context);
  return api.call(async (client) => {
    const connections: Connection[] = [];
    for await (const connection of client.connections.list({ limit: 100 })) connections.push(connection);
    return connections;
  });
}

/** The human view: a table, disconnected connections in grey. */
export function renderConnections(connections: Connection[], { style }: CommandContext): string {
  if (connections.length === 0) return 'No connections.';
  return renderTable(
    style,
    ['ID', 'NAME', 'PHONE NUMBER', 'STATUS', 'QUALITY'],
    connections.map((connection) => {
      const cells = [connection.id, connection.name, connection.phone_number];
      const shown = connection.status === 'active' ? cells : cells.map((cell) => style.gray(cell));
      return [...shown, colorStatus(style, connection.status), connection.quality_rating];
    }),
  );
}

export default defineCommand({ run: listConnections, render: renderConnections });
