import { addKey } from '../core/control-operations';
import type { EmulatorCore } from '../core/emulator-core';
import { formatTimestamp, newId } from '../domain/ids';
import { createLiveConnection } from '../domain/live-simulation';
import { parseSeed } from './parse-seed';
import type { SeedFile } from './seed-types';

/**
 * Creates what a seed describes, silently (no events: the seed is the world as it already is).
 * Live workspaces of a seed count as having accepted the developer agreement.
 */
export async function applySeed(core: EmulatorCore, seed: SeedFile): Promise<void> {
  const valid = parseSeed(seed);
  const now = core.now();
  const createdAt = formatTimestamp(now);
  const state = core.state;
  for (const workspace of valid.workspaces ?? []) {
    const workspaceId = workspace.id ?? newId();
    state.workspaces[workspaceId] ??= {
      id: workspaceId,
      name: workspace.name,
      created_at: createdAt,
      agreement_accepted_at: null,
    };
    for (const seeded of workspace.applications ?? []) {
      const app = {
        id: seeded.id ?? newId(),
        workspace_id: workspaceId,
        name: seeded.name,
        environment: seeded.environment,
        created_at: createdAt,
      };
      state.applications[app.id] = app;
      if (app.environment === 'live') state.workspaces[workspaceId]!.agreement_accepted_at ??= createdAt;
      for (const key of seeded.keys ?? []) addKey(core, app, key.key, key.scopes ?? []);
      for (const endpoint of seeded.endpoints ?? []) {
        const { secret, ...input } = endpoint;
        const created = await core.webhooks.createEndpoint(app.id, input);
        const record = core.state.webhooks.endpoints[created.id];
        if (record && secret) record.secret = secret;
      }
      for (const connection of seeded.connections ?? []) {
        const record = createLiveConnection(app, connection, now);
        if (connection.id) record.id = connection.id;
        state.connections[record.id] = record;
      }
    }
  }
  core.changed();
}
