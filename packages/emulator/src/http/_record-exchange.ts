import type { H3Event } from 'h3';
import { exchangesOf } from '../core/_exchange-ring';
import type { EmulatorCore } from '../core/emulator-core';
import { ANSWER_PARTS, type AnsweredResponse } from './_respond';
import type { V1Call, V1Result } from './_v1-pipeline';

const REQUEST_BODY = Symbol('parley.requestBody');

/**
 * Runs a /v1 call and keeps the exchange for `GET /_emulator/har` (`core/_exchange-ring.ts`): the
 * request, the body its handler read, and the text and headers the answer was built from. A
 * synchronous answer stays synchronous.
 */
export function recordExchange(
  core: EmulatorCore,
  event: H3Event,
  run: () => Response | Promise<Response>,
): Response | Promise<Response> {
  const started = performance.now();
  const atMs = core.now();
  const keep = (response: Response): Response => {
    const parts = (response as AnsweredResponse)[ANSWER_PARTS];
    exchangesOf(core).add({
      request: event.req,
      url: event.url,
      requestBody: (event.context as Record<symbol, string | undefined>)[REQUEST_BODY],
      status: response.status,
      responseHeaders: parts?.headers,
      responseBody: parts?.text ?? undefined,
      requestId: parts?.headers['x-request-id'],
      atMs,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
    return response;
  };
  const answer = run();
  return answer instanceof Promise ? answer.then(keep) : keep(answer);
}

/** A route's handler that also keeps the JSON body it was given for the HAR. */
export function keepingBody(run: (call: V1Call) => V1Result): (call: V1Call) => V1Result {
  return (call) => {
    (call.event.context as Record<symbol, string | undefined>)[REQUEST_BODY] = JSON.stringify(call.body);
    return run(call);
  };
}
