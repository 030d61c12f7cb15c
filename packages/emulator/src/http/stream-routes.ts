import type { H3, H3Event } from 'h3';
import type { ActivityFeed } from '../core/activity-feed';
import { activityPage } from '../core/activity-page';
import type { EmulatorCore } from '../core/emulator-core';
import { activityStream } from './_activity-stream';
import { requestIdOf, sameOriginOnly } from './_control-handler';
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
    (event) => jsonResponse(200, activityPage(core.activity, activityQueryOf(event.url)), requestIdOf(event)),
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

/** The query parameters of `GET /_emulator/activity` as `control.listActivity` takes them. */
function activityQueryOf(url: URL): Parameters<typeof activityPage>[1] {
  const given = (name: string) => url.searchParams.get(name) ?? undefined;
  const [limit, cursor, applicationId, type, status] = [
    given('limit'),
    given('cursor'),
    given('application_id'),
    given('type'),
    given('status'),
  ];
  return {
    ...(limit !== undefined && { limit }),
    ...(cursor !== undefined && { cursor }),
    ...(applicationId !== undefined && { applicationId }),
    ...(type !== undefined && { type }),
    ...(status !== undefined && { status }),
  };
}
