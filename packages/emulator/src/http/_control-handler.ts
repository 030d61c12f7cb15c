import type { H3Event, Middleware } from 'h3';
import type { EmulatorCore } from '../core/emulator-core';
import { isUuid, newRequestId } from '../domain/ids';
import { assertSameOriginCaller } from './_origin-guard';
import { parseJsonBody, readBodyText, requireJsonContentType } from './_read-body';
import { errorResponse, jsonResponse } from './_respond';

/** What a control handler gets. */
export interface ControlCall {
  core: EmulatorCore;
  url: URL;
  /** Path segments after `/_emulator/`. */
  segments: string[];
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
 * Wraps a control-API handler: POST, PUT and PATCH must be `application/json` (415 otherwise; a
 * cross-site form cannot send it without a CORS preflight, which is never granted), an empty
 * JSON body counts as `{}`, and errors use the spec's error body.
 */
export function controlHandler(
  core: EmulatorCore,
  run: (call: ControlCall) => ControlResult | Promise<ControlResult>,
) {
  return async (event: H3Event): Promise<Response> => {
    const started = performance.now();
    const requestId = newRequestId();
    const response = await answer(event, requestId);
    // Changes only: the console's own reads would otherwise fill the feed it watches.
    if (event.req.method !== 'GET') {
      const segments = event.url.pathname.split('/');
      // Only an application that exists: a path's id is outside input, refused or not.
      const applicationId = segments[2] === 'applications' ? segments[3] : undefined;
      const known = isUuid(applicationId) && core.state.applications[applicationId] !== undefined;
      core.activity.publish({
        kind: 'control',
        application_ids: known ? [applicationId] : [],
        method: event.req.method,
        path: event.url.pathname,
        status: response.status,
        request_id: requestId,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
      });
    }
    return response;
  };

  async function answer(event: H3Event, requestId: string): Promise<Response> {
    try {
      const request = event.req;
      assertSameOriginCaller(request, event.url);
      let body: unknown;
      if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') {
        const read = await readBodyText(request);
        requireJsonContentType(request);
        body = parseJsonBody(read, {});
      }
      const segments = event.url.pathname.split('/').slice(2).map(decodeSegment);
      const result = await run({ core: core, url: event.url, segments, body });
      return jsonResponse(result.status, result.body, requestId);
    } catch (error) {
      return errorResponse(error, requestId);
    }
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The `application_id` query filter, if given. */
export function applicationFilter(url: URL): string | undefined {
  return url.searchParams.get('application_id') ?? undefined;
}
