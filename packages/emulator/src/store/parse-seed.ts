import { SCOPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { keyEnvironment } from '../domain/api-keys';
import { endpointDescriptionProblem } from '../domain/endpoint-description';
import { parseSeedConnection } from './_parse-seed-connection';
import { array, fail, object, optionalId, text } from './_seed-fields';
import type { SeedApplication, SeedFile, SeedWorkspace } from './seed-types';

export { SeedError } from './_seed-fields';

const SECRET_PATTERN = /^whsec_[A-Za-z0-9]{32}$/;

/**
 * Validates a parsed seed file, reporting the first problem with its path, e.g.
 * `seed workspaces[0].applications[1].keys[0].key: must be prl_live_ + 32 base62 characters`.
 */
export function parseSeed(input: unknown): SeedFile {
  const root = object(input, '(root)', ['$schema', 'workspaces']);
  const ids = new Set<string>();
  const keys = new Set<string>();
  const workspaces = array(root.workspaces, 'workspaces').map((raw, index): SeedWorkspace => {
    const path = `workspaces[${index}]`;
    const workspace = object(raw, path, ['id', 'name', 'applications']);
    const id = optionalId(workspace.id, `${path}.id`, ids);
    return {
      ...(id ? { id } : {}),
      name: text(workspace.name, `${path}.name`),
      applications: array(workspace.applications, `${path}.applications`).map((app, appIndex) =>
        parseApplication(app, `${path}.applications[${appIndex}]`, ids, keys),
      ),
    };
  });
  return { workspaces };
}

function parseApplication(raw: unknown, path: string, ids: Set<string>, keys: Set<string>): SeedApplication {
  const app = object(raw, path, ['id', 'name', 'environment', 'keys', 'endpoints', 'connections']);
  const id = optionalId(app.id, `${path}.id`, ids);
  const environment = app.environment;
  if (environment !== 'live' && environment !== 'sandbox')
    fail(`${path}.environment`, 'must be "live" or "sandbox"');
  const parsed: SeedApplication = {
    ...(id ? { id } : {}),
    name: text(app.name, `${path}.name`),
    environment,
  };
  parsed.keys = array(app.keys, `${path}.keys`).map((rawKey, index) => {
    const keyPath = `${path}.keys[${index}]`;
    const entry = object(rawKey, keyPath, ['key', 'scopes']);
    const key = entry.key;
    if (typeof key !== 'string' || keyEnvironment(key) !== environment) {
      fail(`${keyPath}.key`, `must be prl_${environment}_ + 32 base62 characters`);
    }
    if (keys.has(key)) fail(`${keyPath}.key`, 'duplicate key');
    keys.add(key);
    const scopes = array(entry.scopes ?? [...SCOPES], `${keyPath}.scopes`);
    for (const scope of scopes) {
      if (typeof scope !== 'string' || scope.length === 0) fail(`${keyPath}.scopes`, 'must hold scope names');
    }
    return { key, scopes: scopes as string[] };
  });
  parsed.endpoints = array(app.endpoints, `${path}.endpoints`).map((rawEndpoint, index) => {
    const endpointPath = `${path}.endpoints[${index}]`;
    const endpoint = object(rawEndpoint, endpointPath, ['url', 'events', 'secret', 'active', 'description']);
    if (typeof endpoint.url !== 'string') fail(`${endpointPath}.url`, 'must be a URL string');
    const events = array(endpoint.events, `${endpointPath}.events`);
    for (const type of events) {
      if (!(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(type)) {
        fail(`${endpointPath}.events`, `unknown event type ${JSON.stringify(type)}`);
      }
    }
    if (
      endpoint.secret !== undefined &&
      (typeof endpoint.secret !== 'string' || !SECRET_PATTERN.test(endpoint.secret))
    ) {
      fail(`${endpointPath}.secret`, 'must be whsec_ + 32 base62 characters');
    }
    if (endpoint.active !== undefined && typeof endpoint.active !== 'boolean') {
      fail(`${endpointPath}.active`, 'must be true or false');
    }
    const descriptionProblem =
      endpoint.description === undefined ? undefined : endpointDescriptionProblem(endpoint.description);
    if (descriptionProblem) fail(`${endpointPath}.description`, descriptionProblem.message);
    return endpoint as NonNullable<SeedApplication['endpoints']>[number];
  });
  parsed.connections = array(app.connections, `${path}.connections`).map((rawConnection, index) => {
    const connectionPath = `${path}.connections[${index}]`;
    if (environment !== 'live') fail(connectionPath, 'connections can only be added to live applications');
    return parseSeedConnection(rawConnection, connectionPath, ids);
  });
  return parsed;
}
