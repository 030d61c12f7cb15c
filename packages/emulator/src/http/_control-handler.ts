import type { H3Event, Middleware } from 'h3';
import { hasApplication } from '../core/applications';
import type { EmulatorCore } from '../core/emulator-core';
import { newRequestId } from '../domain/ids';
import { assertSameOriginCaller } from './_origin-guard';
import { parseJsonBody, readBodyText, requireJsonContentType } from './_read-body';
import { errorResponse, jsonResponse } from './_respond';
import { routeId } from './_route-id';

/** What a control handler gets. */
export interface ControlCall {
  core: EmulatorCore;
  url: URL;
  /** The route's `:id` (h3's `getRouterParam`), decoded; `''` on a route without one. */
  id: string;
  /** The JSON body of a POST/PUT/PATCH (`{}` when empty). */
  body: unknown;
}

/** A control handler's answer. */
export interface ControlResult {
  status: number;
  body?: unknown;
}

/**
 * h3 middleware of every `/_emulator` route: gives the call its request id, refuses a browser
 * acting for another site (`_origin-guard.ts`), and answers any error with the spec's error body.
 */
export const sameOriginOnly: Middleware = async (event, next) => {
  const requestId = newRequestId();
  event.context.requestId = requestId;
  try {
    assertSameOriginCaller(event.req, event.url);
    return await next();
  } catch (error) {
    return errorResponse(error, requestId);
  }
};

/** The request id {@link sameOriginOnly} gave the call. */
export function requestIdOf(event: H3Event): string {
  return event.context.requestId as string;
}

/**
 * h3 middleware of the control routes, before {@link sameOriginOnly}: each change (not a read:
 * the console's own reads would otherwise fill the feed it watches) joins the activity feed with
 * the status it was answered, refused or not.
 */
export function publishChanges(core: EmulatorCore): Middleware {
  return async (event, next) => {
    if (event.req.method === 'GET') return next();
    const started = performance.now();
    const response = (await next()) as Response;
    // Only an application that exists: a path's id is outside input, refused or not.
    const applicationId = event.context.matchedRoute?.route?.startsWith('/_emulator/applications/:id')
      ? routeId(event)
      : undefined;
    core.activity.publish({
      kind: 'control',
      application_ids:
        applicationId !== undefined && hasApplication(core, applicationId) ? [applicationId] : [],
      method: event.req.method,
      path: event.url.pathname,
      status: response.status,
      request_id: requestIdOf(event),
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    });
    return response;
  };
}

/**
 * A control-API handler, under {@link publishChanges} and {@link sameOriginOnly}: POST, PUT and
 * PATCH must be `application/json` (415 otherwise; a cross-site form cannot send it without a
 * CORS preflight, which is never granted), an empty JSON body counts as `{}`.
 */
export function controlHandler(
  core: EmulatorCore,
  run: (call: ControlCall) => ControlResult | Promise<ControlResult>,
) {
  return async (event: H3Event): Promise<Response> => {
    const request = event.req;
    let body: unknown;
    if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') {
      const read = await readBodyText(request);
      requireJsonContentType(request);
      body = parseJsonBody(read, {});
    }
    const result = await run({ core, url: event.url, id: routeId(event), body });
    return jsonResponse(result.status, result.body, requestIdOf(event));
  };
}

/** The `application_id` query filter, if given. */
export function applicationFilter(url: URL): string | undefined {
  return url.searchParams.get('application_id') ?? undefined;
}
