import type { ActivityItem } from './control-types';

/** One line that says what an activity item was. */
export function activitySummary(item: ActivityItem): string {
  switch (item.kind) {
    case 'request':
      return `${item.method} ${item.path} → ${item.status}${item.key_prefix ? ` · ${item.key_prefix}…` : ''} · ${item.duration_ms} ms`;
    case 'control':
      return `${item.method} ${item.path} → ${item.status} · ${item.duration_ms} ms`;
    case 'event':
      return `${item.type} ${item.event.id}`;
    case 'message':
      return `message ${item.message.direction === 'inbound' ? `from ${item.message.from}` : `to ${item.message.to}`} → ${item.status}`;
    case 'delivery': {
      const last = item.delivery.attempts[item.delivery.attempts.length - 1];
      const own = item.delivery.attempts.filter((attempt) => attempt.chaos === undefined).length;
      const outcome = !last
        ? ' · queued'
        : item.chaos
          ? ` · chaos ${item.chaos}: ${last.status_code ?? last.error}`
          : ` · attempt ${own}: ${last.status_code ?? last.error}`;
      return `${item.delivery.event_type} delivery → ${item.status}${outcome}`;
    }
    case 'clock':
      return `clock → ${item.now}`;
    case 'reset':
      return 'emulator reset to its seed';
  }
}

/** The status shown in an item's badge, if it has one. */
export function activityStatus(item: ActivityItem): string | number | undefined {
  return 'status' in item ? item.status : undefined;
}

/** The item kinds the timeline filters on, as they are named there. */
export const ACTIVITY_KINDS: readonly [string, string][] = [
  ['request', '/v1 requests'],
  ['event', 'Events'],
  ['message', 'Message statuses'],
  ['delivery', 'Delivery attempts'],
  ['control', 'Control changes'],
  ['clock', 'Clock'],
];
