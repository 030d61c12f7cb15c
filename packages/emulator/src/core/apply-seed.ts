import { DomainError } from '../domain/domain-error';
import { formatTimestamp, newId } from '../domain/ids';
import { createLiveConnection } from '../domain/live-simulation';
import { parseSeed, SeedError } from '../store/parse-seed';
import type { SeedFile } from '../store/seed-types';
import type { EmulatorCore } from './emulator-core';
import { addKey } from './keys';

/**
 * Creates what a seed describes, silently (no events: the seed is the world as it already is).
 * Live workspaces of a seed count as having accepted the developer agreement.
 */
export async function applySeed(core: EmulatorCore, seed: SeedFile): Promise<void> {
  const valid = parseSeed(seed);
  const now = core.now();
  const createdAt = formatTimestamp(now);
  const state = core.state;
  for (const [workspaceIndex, workspace] of (valid.workspaces ?? []).entries()) {
    const workspaceId = workspace.id ?? newId();
    state.workspaces[workspaceId] ??= {
      id: workspaceId,
      name: workspace.name,
      created_at: createdAt,
      agreement_accepted_at: null,
    };
    for (const [appIndex, seeded] of (workspace.applications ?? []).entries()) {
      const path = `workspaces[${workspaceIndex}].applications[${appIndex}]`;
      const app = {
        id: seeded.id ?? newId(),
        workspace_id: workspaceId,
        name: seeded.name,
        environment: seeded.environment,
        created_at: createdAt,
      };
      state.applications[app.id] = app;
      if (app.environment === 'live') state.workspaces[workspaceId]!.agreement_accepted_at ??= createdAt;
      for (const [index, key] of (seeded.keys ?? []).entries()) {
        await seedStep(`${path}.keys[${index}].key`, () => addKey(core, app, key.key, key.scopes ?? []));
      }
      for (const [index, endpoint] of (seeded.endpoints ?? []).entries()) {
        await seedStep(`${path}.endpoints[${index}].url`, () =>
          core.webhooks.createEndpoint(app.id, endpoint),
        );
      }
      for (const { templates, ...connection } of seeded.connections ?? []) {
        const record = createLiveConnection(app, connection, now);
        if (connection.id) record.id = connection.id;
        if (templates) {
          // parseSeed filled in category and variable_count.
          record.templates = templates.map((template) => ({
            object: 'template',
            name: template.name,
            language: template.language,
            category: template.category ?? 'UTILITY',
            variable_count: template.variable_count ?? 0,
            body: template.body,
          }));
        }
        state.connections[record.id] = record;
      }
    }
  }
  core.changed();
}

/** Runs one creation; a refusal (the URL policy, a key that already exists) names its place. */
async function seedStep<Value>(path: string, step: () => Value | Promise<Value>): Promise<Value> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof DomainError) throw new SeedError(`seed ${path}: ${error.message}`);
    throw error;
  }
}
