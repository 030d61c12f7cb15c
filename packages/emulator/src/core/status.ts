import type { Status } from '@parley/sdk';
import { capabilities } from '../domain/api-keys';
import { formatTimestamp } from '../domain/ids';
import type { EmulatorCore } from './emulator-core';
import type { Caller } from './keys';

/** `GET /v1/status` (spec 2.2). */
export function getStatus(core: Pick<EmulatorCore, 'nowIn'>, caller: Caller): Status {
  return {
    status: 'authenticated',
    application_id: caller.application.id,
    workspace_id: caller.application.workspace_id,
    environment: caller.application.environment,
    scopes: [...caller.key.scopes],
    timestamp: formatTimestamp(core.nowIn(caller.application.workspace_id)),
    capabilities: capabilities(caller.key.scopes),
    sandbox_external_calls: false,
  };
}
