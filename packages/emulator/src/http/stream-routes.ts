import type { H3, H3Event } from 'h3';
import type { ActivityFeed, ActivityItem } from '../core/activity-feed';
import type { EmulatorCore } from '../core/emulator-core';
import { DomainError } from '../domain/domain-error';
import { activityStream } from './_activity-stream';
import { requestIdOf, sameOriginOnly } from './_control-handler';
import { limitOf } from './_pagination';
import { jsonResponse } from './_respond';

/**
 * `GET /_emulator/stream` (server-sent events of the activity feed) and `GET /_emulator/activity`
 * (the same items as a list, for a first view and for clients that poll). Both answer only the
 * emulator's own console and non-browser clients, like the rest of the control API.
 */
export function registerStreamRoutes(app: H3, core: EmulatorCore): void {
  const middleware = [sameOriginOnly];
  app.get('/_emulator/stream', (event) => openStream(core.activity, event, requestIdOf(event)), {
    middleware,
  });
  app.get(
    '/_emulator/activity',
    (event) => jsonResponse(200, activityPage(core.activity, event.url), requestIdOf(event)),
    { middleware },
  );
}

/**
 * One SSE response (`_activity-stream.ts`): the kept items after the client's `Last-Event-ID`
 * (header, as `EventSource` sends it when it reconnects, or `last_event_id` in the query), then
 * every item as it is published. Each is `id: <seq>` and `data: <item JSON>`, secrets masked.
 */
function openStream(feed: ActivityFeed, event: H3Event, requestId: string): Response {
  const lastId = Number(
    event.req.headers.get('last-event-id') ?? event.url.searchParams.get('last_event_id') ?? Number.NaN,
  );
  const body = activityStream(feed, {
    lastEventId: Number.isSafeInteger(lastId) ? lastId : undefined,
    signal: event.req.signal,
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      // Every answer carries its request id (DESIGN §2), a stream too.
      'x-request-id': requestId,
    },
  });
}

/**
 * A page of kept items, newest first, filtered by `application_id`, `type` (an item kind such as
 * `request`, or an event type such as `message.status_updated`) and `status` (`delivered`, `404`,
 * or a class: `2xx`, `4xx`, `5xx`). The cursor is the seq to continue below, so a page does not
 * shift when new items arrive.
 */
function activityPage(feed: ActivityFeed, url: URL) {
  const limit = limitOf(url);
  const applicationId = url.searchParams.get('application_id');
  const type = url.searchParams.get('type');
  const status = url.searchParams.get('status');
  const cursor = url.searchParams.get('cursor');
  const below = cursor === null ? Number.POSITIVE_INFINITY : cursorSeq(cursor);
  const data: unknown[] = [];
  let nextCursor: string | null = null;
  for (const entry of feed.newestFirst()) {
    const { item } = entry;
    if (item.seq >= below) continue;
    if (applicationId !== null && !item.application_ids.includes(applicationId)) continue;
    if (type !== null && item.kind !== type && !('type' in item && item.type === type)) continue;
    if (status !== null && !statusMatches(item, status)) continue;
    if (data.length === limit) {
      nextCursor = Buffer.from(`s:${item.seq + 1}`).toString('base64url');
      break;
    }
    data.push(JSON.parse(feed.json(entry)));
  }
  return { object: 'list', data, has_more: nextCursor !== null, next_cursor: nextCursor };
}

function statusMatches(item: ActivityItem, wanted: string): boolean {
  if (!('status' in item)) return false;
  const status = String(item.status);
  return /^[1-5]xx$/.test(wanted)
    ? typeof item.status === 'number' && status[0] === wanted[0]
    : status === wanted;
}

function cursorSeq(cursor: string): number {
  const match = /^s:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) {
    throw new DomainError('validation_error', 'cursor is not one this API returned.', {
      field: 'cursor',
      reason: 'invalid_value',
    });
  }
  return Number(match[1]);
}
