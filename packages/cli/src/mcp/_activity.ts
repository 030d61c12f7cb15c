import type { EmulatorControl } from '@parley/emulator/control';
import type { ActivityItem } from '../client/activity-stream';

/** What `tail_activity` asks for: the last `limit` items that pass every filter given. */
export interface ActivityQuery {
  limit: number;
  kind?: string | undefined;
  status?: string | undefined;
  path?: string | undefined;
  application_id?: string | undefined;
}

// The emulator's largest page: the path filter runs here, on the newest 100 of the others.
const PAGE = 100;

/**
 * The newest items of the emulator's activity feed (the typed client's `listActivity`, newest first
 * there), oldest first, filtered by kind (or event type), status and application there, and by path
 * here (a request at `path` or under it). The client bounds the read and types the refusals.
 */
export async function recentActivity(
  control: EmulatorControl,
  query: ActivityQuery,
): Promise<ActivityItem[]> {
  const page = await control.listActivity({
    limit: query.path === undefined ? query.limit : PAGE,
    ...(query.kind ? { type: query.kind } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.application_id ? { applicationId: query.application_id } : {}),
  });
  const under = query.path?.replace(/\/+$/, '');
  const kept = (page.data as unknown as ActivityItem[]).filter(
    (item) =>
      under === undefined ||
      (typeof item.path === 'string' && (item.path === under || item.path.startsWith(`${under}/`))),
  );
  return kept.slice(0, query.limit).reverse();
}
