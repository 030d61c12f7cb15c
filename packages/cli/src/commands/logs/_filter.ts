import type { ActivityItem } from '../../client/activity-stream';
import { usageError } from '../../exit-error';

/** `--status` and `--path` of `parley logs tail`. */
export interface ActivityFilterOptions {
  status?: string | undefined;
  path?: string | undefined;
}

/**
 * Which items to print. `--status` is an HTTP status (`404`), a class (`4xx`) or a message or
 * delivery status (`delivered`), as `GET /_emulator/activity?status=` reads it; `--path` keeps
 * requests at that path or under it (`/v1/messages` also matches `/v1/messages/{id}`). An item
 * without a status (or a path) never matches a filter on it.
 */
export function activityFilter({ status, path }: ActivityFilterOptions): (item: ActivityItem) => boolean {
  if (status !== undefined && !/^([1-5]xx|[1-5]\d\d|[a-z_]+)$/.test(status)) {
    throw usageError(
      `--status must be an HTTP status (404), a class (4xx) or a status word (delivered); got "${status}"`,
    );
  }
  if (path !== undefined && !path.startsWith('/')) {
    throw usageError(`--path must start with /, e.g. --path /v1/messages; got "${path}"`);
  }
  const under = path?.replace(/\/+$/, '');
  return (item) => {
    if (status !== undefined && !statusMatches(item.status, status)) return false;
    if (under !== undefined) {
      if (typeof item.path !== 'string') return false;
      if (item.path !== under && !item.path.startsWith(`${under}/`)) return false;
    }
    return true;
  };
}

function statusMatches(actual: unknown, wanted: string): boolean {
  if (typeof actual === 'number') {
    return wanted.endsWith('xx') ? String(actual)[0] === wanted[0] : String(actual) === wanted;
  }
  return typeof actual === 'string' && actual === wanted;
}
