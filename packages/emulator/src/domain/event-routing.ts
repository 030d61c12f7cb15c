import { API_VERSION, type WebhookEvent } from '@parley/sdk';
import { formatTimestamp, newEventId } from './ids';
import type { ApplicationRecord } from './records';

/** The `data` of an event of this type. */
export type EventData<Type extends WebhookEvent['type']> = Extract<WebhookEvent, { type: Type }>['data'];

/** A new event envelope (spec 6.2): `evt_` id, this API version, created now. */
export function buildEvent<Type extends WebhookEvent['type']>(
  type: Type,
  data: EventData<Type>,
  now: number,
  livemode: boolean,
): Extract<WebhookEvent, { type: Type }> {
  return {
    api_version: API_VERSION,
    created_at: formatTimestamp(now),
    data,
    id: newEventId(),
    livemode,
    type,
  } as Extract<WebhookEvent, { type: Type }>;
}

/**
 * The applications an event about `source` goes to (spec 6.1): a sandbox event only to the
 * sandbox application it concerns; a live event to every live application of the workspace.
 */
export function routeEvent(
  source: ApplicationRecord,
  applications: Readonly<Record<string, ApplicationRecord>>,
): string[] {
  if (source.environment === 'sandbox') return [source.id];
  return Object.values(applications)
    .filter((app) => app.environment === 'live' && app.workspace_id === source.workspace_id)
    .map((app) => app.id);
}
