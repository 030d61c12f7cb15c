import type { ListEnvelope } from '@parley/sdk';
import { MAX_CONTROL_ANSWER_BYTES, sendControlCall } from '../../control-client/_control-request';
import { createControlClient } from '../../control-client/create-control-client';
import type { ActivityItem } from '../../core/activity-feed';
import type { EmulatorControl } from '../../core/control-types';

/**
 * The emulator's control API on the page's own origin: the typed client every other caller uses
 * (`@parley/emulator/control`), so the console spells no `/_emulator` path of its own. A refusal
 * throws an `EmulatorControlError` carrying the API's `code` and `details`.
 */
export const control: EmulatorControl = createControlClient({ baseUrl: location.origin });

/** Filters and paging of `GET /_emulator/activity` (see the timeline). */
export interface ActivityQuery {
  application_id?: string;
  type?: string;
  status?: string;
  limit: number;
  cursor?: string;
}

// The activity history is no method of `EmulatorControl` (the stream's page, served beside it):
// read through the client's own bounded request, which the client's methods use too.
const transport = {
  root: location.origin,
  fetch: (request: Request) => fetch(request),
  maxAnswerBytes: MAX_CONTROL_ANSWER_BYTES,
  signal: undefined,
};

/** A page of the activity history, newest first (`GET /_emulator/activity`); empty filters left out. */
export async function listActivity(query: ActivityQuery): Promise<ListEnvelope<ActivityItem>> {
  const given = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
  const page = await sendControlCall(transport, {
    method: 'GET',
    path: 'activity',
    query: given,
    timeoutMs: 30_000,
  });
  return page as ListEnvelope<ActivityItem>;
}
