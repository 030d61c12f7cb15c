import type { Status } from '@parley/sdk';
import { capabilities, type KeyRecord } from '../domain/api-keys';
import { formatTimestamp } from '../domain/ids';
import type { ApplicationRecord } from '../domain/records';
import type { EmulatorCore } from './emulator-core';
import type { Caller } from './keys';

/** `GET /v1/status` (spec 2.2) at `timestamp`. */
function statusAt(caller: Caller, timestamp: string): Status {
  return {
    status: 'authenticated',
    application_id: caller.application.id,
    workspace_id: caller.application.workspace_id,
    environment: caller.application.environment,
    scopes: [...caller.key.scopes],
    timestamp,
    capabilities: capabilities(caller.key.scopes),
    sandbox_external_calls: false,
  };
}

/** The last answer of each key, until its second passes. */
const lastAnswers = new WeakMap<
  KeyRecord,
  { timestamp: string; application: ApplicationRecord; json: string }
>();

/**
 * `GET /v1/status` as JSON text. The answer changes only with the key (its application and scopes,
 * which a key never changes) and the second of its `timestamp`, so each key's text is kept until
 * its second passes: under load the health check builds and serialises nothing, and the exchanges
 * the HAR keeps share one string instead of 500 (issue 23).
 */
export function statusJson(core: Pick<EmulatorCore, 'nowIn'>, caller: Caller): string {
  const timestamp = formatTimestamp(core.nowIn(caller.application.workspace_id));
  const last = lastAnswers.get(caller.key);
  if (last !== undefined && last.timestamp === timestamp && last.application === caller.application) {
    return last.json;
  }
  const json = JSON.stringify(statusAt(caller, timestamp));
  lastAnswers.set(caller.key, { timestamp, application: caller.application, json });
  return json;
}
