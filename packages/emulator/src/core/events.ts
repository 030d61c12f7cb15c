import type { WebhookEvent } from '@parley/sdk';
import { MAX_RECENT_EVENTS } from '../store/state';
import type { StateParts } from './emulator-core';

/** Recent events newest first, optionally those routed to one application. */
export function listEvents(core: StateParts<'events'>, applicationId: string | undefined): WebhookEvent[] {
  return core.state.events
    .slice(-MAX_RECENT_EVENTS)
    .filter((record) => applicationId === undefined || record.application_ids.includes(applicationId))
    .reverse()
    .map((record) => record.event);
}
