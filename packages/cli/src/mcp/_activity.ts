import { EmulatorControlError, readAtMost } from '@parley/emulator/control';
import type { ActivityItem } from '../client/activity-stream';

/** What `tail_activity` asks for: the last `limit` items that pass every filter given. */
export interface ActivityQuery {
  limit: number;
  kind?: string | undefined;
  status?: string | undefined;
  path?: string | undefined;
  application_id?: string | undefined;
}

const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;
// The emulator's largest page: the path filter runs here, on the newest 100 of the others.
const PAGE = 100;

/**
 * The newest items of the emulator's activity feed (`GET /_emulator/activity`, newest first there),
 * oldest first, filtered by kind (or event type), status and application there, and by path here
 * (a request at `path` or under it). The answer is read up to 1 MiB.
 */
export async function recentActivity(
  origin: string,
  fetchFunction: (request: Request) => Promise<Response>,
  query: ActivityQuery,
): Promise<ActivityItem[]> {
  const url = new URL('/_emulator/activity', origin);
  url.searchParams.set('limit', String(query.path === undefined ? query.limit : PAGE));
  if (query.kind) url.searchParams.set('type', query.kind);
  if (query.status) url.searchParams.set('status', query.status);
  if (query.application_id) url.searchParams.set('application_id', query.application_id);
  const request = new Request(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const response = await fetchFunction(request);
  const { bytes, cut } = await readAtMost(response.body, MAX_ANSWER_BYTES, request);
  const body = cut ? undefined : parsed(bytes);
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown; request_id?: unknown } })?.error;
    throw new EmulatorControlError(
      response.status,
      typeof error?.code === 'string' ? error.code : 'http_error',
      typeof error?.message === 'string' ? error.message : `the emulator answered HTTP ${response.status}`,
      {},
      typeof error?.request_id === 'string' ? error.request_id : undefined,
    );
  }
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) {
    throw new EmulatorControlError(
      502,
      'not_an_emulator',
      `${origin} has no emulator activity feed`,
      {},
      undefined,
    );
  }
  const under = query.path?.replace(/\/+$/, '');
  const kept = (data as ActivityItem[]).filter(
    (item) =>
      under === undefined ||
      (typeof item.path === 'string' && (item.path === under || item.path.startsWith(`${under}/`))),
  );
  return kept.slice(0, query.limit).reverse();
}

function parsed(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
