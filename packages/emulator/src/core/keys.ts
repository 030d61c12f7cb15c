import type { Environment } from '@parley/sdk';
import { generateKey, hashKey, type KeyRecord, keyPrefix, parseScopes } from '../domain/api-keys';
import { DomainError } from '../domain/domain-error';
import { formatTimestamp, isUuid, newId } from '../domain/ids';
import { controlBody, invalid } from '../domain/input-checks';
import type { ApplicationRecord } from '../domain/records';
import { findApplication } from './applications';
import type { EmulatorCore, StateParts } from './emulator-core';

/** The authenticated caller of a /v1 request. */
export interface Caller {
  key: KeyRecord;
  application: ApplicationRecord;
}

/**
 * What the key operations work with: the keys, the applications and workspaces they belong to,
 * the hash index that authenticates them, their rate-limit windows, each workspace's time.
 */
type KeyBook = StateParts<'keys' | 'applications' | 'workspaces'> &
  Pick<EmulatorCore, 'nowIn' | 'hasKeyHash' | 'indexKey' | 'unindexKey' | 'rateLimits'>;

/** A key as the control API shows it (never the key itself, except at creation). */
export interface KeyView {
  id: string;
  application_id: string;
  environment: Environment;
  /** The key's first characters, e.g. `prl_sandbox_AbCd`: enough to tell keys apart. */
  prefix: string;
  scopes: string[];
  created_at: string;
}

/** The control view of a key. */
export function keyView(key: KeyRecord, environment: Environment): KeyView {
  const { id, application_id, prefix, scopes, created_at } = key;
  return { id, application_id, environment, prefix, scopes: [...scopes], created_at };
}

/** `POST /_emulator/applications/{id}/keys`: the key is in this answer only. */
export function createKey(core: KeyBook, applicationId: string, input: unknown) {
  const app = findApplication(core, applicationId);
  const body = controlBody(input);
  const scopes = parseScopes(body.scopes);
  const workspace = core.state.workspaces[app.workspace_id]!;
  if (app.environment === 'live' && workspace.agreement_accepted_at === null) {
    if (body.accept_agreement !== true) {
      throw new DomainError(
        'agreement_required',
        'The first live key of a workspace requires accepting the developer agreement: send "accept_agreement": true.',
      );
    }
    workspace.agreement_accepted_at = formatTimestamp(core.nowIn(workspace.id));
  }
  const key = generateKey(app.environment);
  return { ...addKey(core, app, key, scopes), key };
}

/**
 * `DELETE /_emulator/keys/{id}`: the key stops authenticating at once (401 `invalid_api_key`,
 * DESIGN §2), also for a request of it still reading its body. Its window counts go with it.
 */
export function revokeKey(core: KeyBook, id: string): void {
  const key = isUuid(id) ? core.state.keys[id] : undefined;
  if (!key) throw new DomainError('not_found', `No key ${id}.`, { key_id: id });
  delete core.state.keys[id];
  core.rateLimits.forget(id);
  core.unindexKey(key.hash);
}

/** Stores a key (its hash) and returns its view. */
export function addKey(core: KeyBook, app: ApplicationRecord, key: string, scopes: string[]) {
  const hash = hashKey(key);
  if (core.hasKeyHash(hash)) invalid('key', 'duplicate', 'This key already exists.');
  const record: KeyRecord = {
    id: newId(),
    application_id: app.id,
    hash,
    prefix: keyPrefix(key),
    scopes,
    created_at: formatTimestamp(core.nowIn(app.workspace_id)),
  };
  core.state.keys[record.id] = record;
  core.indexKey(hash, record.id);
  return keyView(record, app.environment);
}
