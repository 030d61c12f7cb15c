import { SANDBOX_EVENT_OVERRIDES, type SandboxEventType, sandboxEventOverrideProblem } from '@parley/sdk';
import type { ActivityItem } from '../core/activity-feed';

/**
 * The ids of the events `POST /v1/sandbox/events` made for an application, from its activity
 * (oldest first): the call emits its one event, then is logged, so a triggered event is the last
 * event of the application before a 2xx `POST /v1/sandbox/events` of it.
 */
export function triggeredEventIds(activity: readonly ActivityItem[], applicationId: string): Set<string> {
  const triggered = new Set<string>();
  let last: string | undefined;
  for (const item of activity) {
    if (!item.application_ids.includes(applicationId)) continue;
    if (item.kind === 'event') last = item.event.id;
    if (item.kind !== 'request') continue;
    if (
      last !== undefined &&
      item.method === 'POST' &&
      item.path === '/v1/sandbox/events' &&
      item.status >= 200 &&
      item.status < 300 &&
      item.fault === undefined
    )
      triggered.add(last);
    last = undefined;
  }
  return triggered;
}

/**
 * The overrides that make a synthetic event of `type` again with `event`'s data: every path the
 * API lets a caller set, with the event's value there (ids and times are the emulator's). Undefined
 * when the data holds a value no override may carry.
 */
export function overridesOf(
  type: SandboxEventType,
  event: { data: unknown },
): Record<string, unknown> | undefined {
  const overrides: Record<string, unknown> = {};
  for (const path of Object.keys(SANDBOX_EVENT_OVERRIDES[type])) {
    let value: unknown = event;
    for (const key of path.split('.')) {
      value =
        typeof value === 'object' && value !== null && Object.hasOwn(value, key)
          ? (value as Record<string, unknown>)[key]
          : undefined;
    }
    if (value !== undefined) overrides[path] = value;
  }
  return sandboxEventOverrideProblem(type, overrides) === null ? overrides : undefined;
}
