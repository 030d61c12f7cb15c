import type { IncomingMessage } from 'node:http';
import type { H3Event } from 'h3';
import type { ExchangeRing } from '../core/_exchange-ring';
import type { EmulatorCore } from '../core/emulator-core';
import { ANSWER_PARTS, type AnsweredResponse } from './_respond';
import { runV1, type V1Call, type V1Result, type V1RouteSpec } from './_v1-pipeline';

// Issue 23, measured on a loaded 2-core machine (Node 24; three builds up at once, requests per
// CPU-second of the server, median of 11 alternating 2 s rounds, 50 connections, rate limits off),
// against the same tree with recording removed: keeping event.req, two closures a call and a
// spliced array cost GET /v1/status 0.90 and POST /v1/messages 0.92; this file's way 0.96 and
// 1.00 (rounds spread ±30 %, so within noise is all these say). RSS after 50,000 sends (median of
// 3): 1.11 before, still 1.11 now: what survives in the ring is promoted and becomes old-space
// garbage whatever it holds, so memory is not yet within 2 %.
const REQUEST_BODY = Symbol('parley.requestBody');

type NodeBacked = { runtime?: { node?: { req?: IncomingMessage } } };

/**
 * Runs a /v1 call (`runV1`) and keeps the exchange in `ring` for `GET /_emulator/har`
 * (`core/_exchange-ring.ts`): the method, URL and headers of the request, the body its handler
 * read, and the text and headers the answer was built from. A synchronous answer stays
 * synchronous, with no closure made for it.
 */
export function recordExchange(
  core: EmulatorCore,
  ring: ExchangeRing,
  event: H3Event,
  spec: V1RouteSpec,
): Response | Promise<Response> {
  const started = performance.now();
  const atMs = core.now();
  const answer = runV1(core, event, spec);
  return answer instanceof Promise
    ? answer.then((response) => keep(ring, event, response, atMs, started))
    : keep(ring, event, answer, atMs, started);
}

function keep(
  ring: ExchangeRing,
  event: H3Event,
  response: Response,
  atMs: number,
  started: number,
): Response {
  const parts = (response as AnsweredResponse)[ANSWER_PARTS];
  const request = event.req;
  ring.add({
    method: request.method,
    url: event.url,
    // Node's raw list is already made; `request.headers` would build Node's header object on
    // top of it (what `_request-header.ts` avoids on the hot path).
    requestHeaders: (request as NodeBacked).runtime?.node?.req?.rawHeaders ?? request.headers,
    requestBody: (event.context as Record<symbol, string | undefined>)[REQUEST_BODY],
    status: response.status,
    responseHeaders: parts?.headers,
    responseBody: parts?.text ?? undefined,
    requestId: parts?.headers['x-request-id'],
    atMs,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  });
  return response;
}

/** A route's handler that also keeps the JSON body it was given for the HAR. */
export function keepingBody(run: (call: V1Call) => V1Result): (call: V1Call) => V1Result {
  return (call) => {
    (call.event.context as Record<symbol, string | undefined>)[REQUEST_BODY] = JSON.stringify(call.body);
    return run(call);
  };
}
