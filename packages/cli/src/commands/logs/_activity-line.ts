import type { ChalkInstance } from 'chalk';
import type { ActivityItem } from '../../client/activity-stream';
import { colorStatus } from '../../output/status-color';
import { terminalSafeData, terminalSafeJson } from '../../output/terminal-safe';

interface Attempt {
  status_code: number | null;
  error: string | null;
  chaos?: string;
}

/**
 * One line per activity item: the emulator time it happened (UTC), its kind, and what it says,
 * e.g. `09:30:15  request   POST /v1/messages → 202  12 ms  req_…  prl_sandbox_AbCd…  trace 4bf9…`.
 */
export function activityLine(streamed: ActivityItem, style: ChalkInstance): string {
  // Every field came from the stream: made terminal-safe before any of it is styled.
  const item = terminalSafeData(streamed);
  const time = style.dim(typeof item.at === 'string' ? item.at.slice(11, 19) : '--:--:--');
  return `${time}  ${String(item.kind).padEnd(8)}  ${describeOrShow(item, streamed, style)}`;
}

/** An item of a known kind that lacks what that kind carries is shown as received, not a crash. */
function describeOrShow(item: ActivityItem, streamed: ActivityItem, style: ChalkInstance): string {
  try {
    return describe(item, streamed, style);
  } catch {
    return terminalSafeJson(streamed);
  }
}

function describe(item: ActivityItem, streamed: ActivityItem, style: ChalkInstance): string {
  const field = (name: string) => item[name] as string;
  switch (item.kind) {
    case 'request':
      return [
        `${field('method')} ${field('path')} → ${httpStatus(item.status as number, style)}`,
        `${item.duration_ms} ms`,
        field('request_id'),
        ...(item.key_prefix ? [`${field('key_prefix')}…`] : []),
        ...(item.fault ? [style.yellow(`fault ${field('fault')}`)] : []),
        ...traceOf(item.traceparent),
      ].join('  ');
    case 'control':
      return `${field('method')} ${field('path')} → ${httpStatus(item.status as number, style)}  ${item.duration_ms} ms`;
    case 'event':
      return `${field('type')} ${(item.event as { id: string }).id}`;
    case 'message': {
      const message = item.message as {
        id: string;
        direction: string;
        to: string | null;
        from: string | null;
      };
      const party = message.direction === 'inbound' ? `from ${message.from}` : `to ${message.to}`;
      return `${message.id} ${party} → ${colorStatus(style, field('status'))}`;
    }
    case 'delivery': {
      const delivery = item.delivery as { event_type: string; event_id: string; attempts: Attempt[] };
      const last = delivery.attempts.at(-1);
      const own = delivery.attempts.filter((attempt) => attempt.chaos === undefined).length;
      const attempt = !last
        ? 'queued'
        : `${item.chaos ? style.cyan(`chaos ${field('chaos')}`) : `attempt ${own}`}: ${
            last.status_code === null ? (last.error ?? 'no answer') : httpStatus(last.status_code, style)
          }`;
      return `${delivery.event_type} ${delivery.event_id} → ${colorStatus(style, field('status'))}  ${attempt}`;
    }
    case 'clock':
      return `now ${field('now')} (${field('mode')})`;
    case 'reset':
      return 'back to the seed state';
    default:
      // The item as received: JSON escapes what it holds once, not the escapes made above.
      return terminalSafeJson(streamed);
  }
}

// The emulator records only a valid traceparent, but the stream is outside input: only a trace id
// that is 32 hex digits is printed.
const TRACE_ID = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** `trace <trace-id>` of a request's W3C traceparent (the id a tracing backend finds it by). */
function traceOf(traceparent: unknown): string[] {
  const id = typeof traceparent === 'string' ? TRACE_ID.exec(traceparent)?.[1] : undefined;
  return id === undefined ? [] : [`trace ${id}`];
}

function httpStatus(status: number, style: ChalkInstance): string {
  const text = String(status);
  return status < 300 ? style.green(text) : status < 500 ? style.yellow(text) : style.red(text);
}
